import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors.js';
import { withVerifiedTokenCache, type Caller, type TokenVerifier } from './token-verifier.js';

const callerFor = (token: string, expiresAt: number | undefined): Caller => ({
  subject: token,
  upn: 'bob@example.com',
  email: 'bob@example.com',
  givenName: '',
  familyName: '',
  name: '',
  roles: ['MFA.Helpdesk'],
  session: `token:${token}`,
  amr: [],
  tokenId: undefined,
  issuedAt: 0,
  ...(expiresAt === undefined ? {} : { expiresAt }),
});

function setup(expiresAt: (token: string) => number | undefined) {
  let now = 1_700_000_000_000;
  const checked: string[] = [];
  const inner: TokenVerifier = async (authorization) => {
    checked.push(authorization ?? '');
    if (!authorization || authorization.includes('bad')) throw new AppError({ code: 'auth.token_invalid' });
    return callerFor(authorization, expiresAt(authorization));
  };
  const verify = withVerifiedTokenCache(inner, { maxAgeMs: 60_000, maxEntries: 2, now: () => now });
  return { verify, checked, tick: (ms: number) => (now += ms), now: () => now };
}

describe('withVerifiedTokenCache', () => {
  it('checks a token once, then answers it from memory until it expires', async () => {
    const t = setup(() => 1_700_000_030);
    const first = await t.verify('Bearer a');
    expect(await t.verify('Bearer a')).toBe(first);
    expect(t.checked).toEqual(['Bearer a']);
    t.tick(29_999);
    await t.verify('Bearer a');
    expect(t.checked).toHaveLength(1);
    // At its expiry, the token is checked again (and refused or not by the real verifier).
    t.tick(1);
    await t.verify('Bearer a');
    expect(t.checked).toHaveLength(2);
  });

  it('remembers a long-lived token for maxAgeMs at most', async () => {
    const t = setup(() => 1_700_003_600);
    await t.verify('Bearer a');
    t.tick(60_000);
    await t.verify('Bearer a');
    expect(t.checked).toHaveLength(2);
  });

  it('never remembers a refused token, an expired one or one without exp', async () => {
    const t = setup((token) => (token.includes('noexp') ? undefined : token.includes('old') ? 1_699_999_000 : 1_700_000_030));
    for (const token of ['Bearer bad', 'Bearer old', 'Bearer noexp']) {
      for (let i = 0; i < 2; i++) await t.verify(token).catch(() => undefined);
    }
    await expect(t.verify(undefined)).rejects.toMatchObject({ code: 'auth.token_invalid' });
    expect(t.checked).toEqual(['Bearer bad', 'Bearer bad', 'Bearer old', 'Bearer old', 'Bearer noexp', 'Bearer noexp', '']);
  });

  it('keys by the whole token, bounds its memory, and shares a frozen answer', async () => {
    const t = setup(() => 1_700_000_030);
    const a = await t.verify('Bearer a');
    await t.verify('Bearer b');
    await t.verify('Bearer c');
    expect(t.checked).toEqual(['Bearer a', 'Bearer b', 'Bearer c']);
    // Two entries at most: the oldest (a) went.
    await t.verify('Bearer a');
    expect(t.checked).toHaveLength(4);
    expect(Object.isFrozen(a) && Object.isFrozen(a.roles)).toBe(true);
    expect(() => (a.roles as string[]).push('MFA.Admin')).toThrow();
  });
});
