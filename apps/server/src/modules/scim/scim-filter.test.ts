import { describe, expect, it } from 'vitest';
import { ScimError } from './scim-errors.js';
import { matches, parseFilter } from './scim-filter.js';

const user = {
  id: 'A1',
  userName: 'Dana.Doe@Example.com',
  externalId: 'DanaD',
  active: true,
  name: { givenName: 'Dana', familyName: 'Doe' },
  emails: [
    { type: 'work', value: 'dana@example.com', primary: true },
    { type: 'home', value: 'dana@home.example' },
  ],
  meta: { created: '2026-01-10T10:00:00.000Z', lastModified: '2026-02-01T00:00:00.000Z' },
};
const m = (f: string) => matches(parseFilter(f), user);

describe('SCIM filters', () => {
  it('compares userName without regard to case, and attribute names without regard to case', () => {
    expect(m('userName eq "dana.doe@example.com"')).toBe(true);
    expect(m('USERNAME EQ "DANA.DOE@EXAMPLE.COM"')).toBe(true);
    expect(m('userName eq "someone@example.com"')).toBe(false);
  });
  it('keeps externalId and id case-exact', () => {
    expect(m('externalId eq "DanaD"')).toBe(true);
    expect(m('externalId eq "danad"')).toBe(false);
  });
  it('supports sw, co, ew, pr, ne and booleans', () => {
    expect(m('userName sw "dana"')).toBe(true);
    expect(m('userName co "DOE@"')).toBe(true);
    expect(m('userName ew ".com"')).toBe(true);
    expect(m('name.givenName pr')).toBe(true);
    expect(m('title pr')).toBe(false);
    expect(m('userName ne "x"')).toBe(true);
    expect(m('active eq true')).toBe(true);
    expect(m('active eq false')).toBe(false);
  });
  it('compares meta.created and meta.lastModified as dates', () => {
    expect(m('meta.created gt "2026-01-01T00:00:00Z"')).toBe(true);
    expect(m('meta.created gt "2026-01-10T10:00:00.000Z"')).toBe(false);
    expect(m('meta.lastModified ge "2026-02-01T00:00:00Z"')).toBe(true);
    expect(m('meta.lastModified lt "2026-01-01T00:00:00Z"')).toBe(false);
  });
  it('combines with and, or, not and parentheses (and binds tighter than or)', () => {
    expect(m('userName eq "x" or externalId eq "DanaD" and active eq true')).toBe(true);
    expect(m('(userName eq "x" or externalId eq "DanaD") and active eq false')).toBe(false);
    expect(m('not (userName eq "x")')).toBe(true);
  });
  it("matches Entra's e-mail filter and RFC value paths", () => {
    expect(m('emails[type eq "work"].value eq "DANA@example.com"')).toBe(true);
    expect(m('emails[type eq "work"].value eq "dana@home.example"')).toBe(false);
    expect(m('emails[type eq "home" and value co "home"]')).toBe(true);
    expect(m('emails.value eq "dana@home.example"')).toBe(true);
    expect(m('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "dana.doe@example.com"')).toBe(true);
  });
  it('reads an unquoted word as the string it spells, as lenient clients send it', () => {
    expect(parseFilter('userName sw O')).toEqual({ kind: 'cmp', path: { attr: 'userName' }, op: 'sw', value: 'O' });
    expect(m('userName sw DANA')).toBe(true);
    expect(m('userName eq dana')).toBe(false);
    expect(parseFilter('meta.created gt 2015-10-10T14:38:21Z')).toMatchObject({ op: 'gt', value: '2015-10-10T14:38:21Z' });
    expect(parseFilter('active eq true')).toMatchObject({ value: true });
    expect(parseFilter('userName eq "a" and active eq false')).toMatchObject({ kind: 'and' });
  });
  it.each([
    '',
    'userName',
    'userName eq',
    'userName eq and',
    'userName eq .value',
    'userName xx "a"',
    '(userName eq "a"',
    'userName eq "a" garbage',
    'userName eq "unterminated',
    'emails[type eq "work"',
    '"x" eq "y"',
  ])('refuses %j as invalidFilter', (f) => {
    try {
      parseFilter(f);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ScimError);
      expect((err as ScimError).scimType).toBe('invalidFilter');
    }
  });
});
