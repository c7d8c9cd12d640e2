import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_HELPDESK, ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import { buildTestApp, type TestApp } from '../../../test/app.js';
import { SignInRefusedError, signIn } from '../../../test/oidc-flow.js';
import { entraUser, patchOp, SCIM_TOKEN } from '../../../test/scim-api.js';

/** The embedded default with DEMO_DATA=false: an empty directory that SCIM fills, whose users sign in at the embedded identity provider. */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp(
    { SCIM_TOKEN, DEMO_DATA: 'false', SCIM_GROUP_HELPDESK: 'MFA Helpdesk', SCIM_GROUP_SOLUTION_ADMIN: 'MFA Solution Admins' },
    { seed: false },
  );
});
afterAll(() => t.close());

const scim = (method: 'POST' | 'PATCH' | 'GET', path: string, body?: unknown) =>
  t.app.inject({
    method,
    url: `/scim/v2${path}`,
    headers: { authorization: `Bearer ${SCIM_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const claimsOf = (tokens: { access_token: string }) => decodeJwt(tokens.access_token) as { upn: string; roles: string[] };

describe('embedded identity provider with DEMO_DATA=false', () => {
  it('starts with an empty directory: no demo staff, no demo tokens', async () => {
    expect(await t.database.db.selectFrom('idp_account').select('id').execute()).toEqual([]);
    expect(await t.database.db.selectFrom('mfa_user').select('id').execute()).toEqual([]);
    expect(await t.database.db.selectFrom('mfa_hardware_token').select('id').execute()).toEqual([]);
    await expect(signIn(t.app, t.config, 'alice@example.com', 'portal-demo-test')).rejects.toThrow();
  });

  it('signs in a SCIM user with the SCIM password (stored hashed), and a changed password replaces it', async () => {
    const created = await scim('POST', '/Users', entraUser('newhire@example.org', { password: 'First-Pa55word!' }));
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toContain('First-Pa55word!');
    const account = await t.database.db
      .selectFrom('idp_account')
      .selectAll()
      .where('username', '=', 'newhire@example.org')
      .executeTakeFirstOrThrow();
    expect(account.password_hash).toMatch(/^scrypt\$/);
    expect(account.password_hash).not.toContain('First-Pa55word!');
    const tokens = await signIn(t.app, t.config, 'NewHire@example.org', 'First-Pa55word!');
    expect(claimsOf(tokens)).toMatchObject({ upn: 'newhire@example.org', roles: [] });

    await scim('PATCH', `/Users/${created.json().id}`, patchOp({ op: 'replace', path: 'password', value: 'Second-Pa55word!' }));
    await expect(signIn(t.app, t.config, 'newhire@example.org', 'First-Pa55word!')).rejects.toThrow();
    expect(claimsOf(await signIn(t.app, t.config, 'newhire@example.org', 'Second-Pa55word!')).upn).toBe('newhire@example.org');
    const audit = await t.database.db.selectFrom('audit_event').select('details').where('action', '=', 'scim.user.update').execute();
    expect(JSON.stringify(audit)).not.toContain('Pa55word');
  });

  it('gives the helpdesk and Solution Administrator roles to members of the configured SCIM groups', async () => {
    const hd = (await scim('POST', '/Users', entraUser('desk@example.org', { password: 'Desk-Pa55word!' }))).json();
    const sa = (await scim('POST', '/Users', entraUser('boss@example.org', { password: 'Boss-Pa55word!' }))).json();
    await scim('POST', '/Groups', { displayName: 'MFA Helpdesk', members: [{ value: hd.id }] });
    const admins = (await scim('POST', '/Groups', { displayName: 'mfa solution admins' })).json();
    expect(claimsOf(await signIn(t.app, t.config, 'desk@example.org', 'Desk-Pa55word!')).roles).toEqual([ROLE_HELPDESK]);
    expect(claimsOf(await signIn(t.app, t.config, 'boss@example.org', 'Boss-Pa55word!')).roles).toEqual([]);
    await scim('PATCH', `/Groups/${admins.id}`, patchOp({ op: 'add', path: 'members', value: [{ value: sa.id }] }));
    expect(claimsOf(await signIn(t.app, t.config, 'boss@example.org', 'Boss-Pa55word!')).roles).toEqual([ROLE_SOLUTION_ADMIN]);
  });

  it('refuses the sign-in of a user set inactive (account disabled)', async () => {
    const u = (await scim('POST', '/Users', entraUser('gone@example.org', { password: 'Gone-Pa55word!' }))).json();
    await scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
    const err = await signIn(t.app, t.config, 'gone@example.org', 'Gone-Pa55word!').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignInRefusedError);
    expect(err).toMatchObject({ error: 'access_denied', description: expect.stringMatching(/disabled/) });
  });
});
