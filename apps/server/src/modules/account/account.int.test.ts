import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateKeyPair, SignJWT, decodeProtectedHeader } from 'jose';
import { CLAIMS_HEADER, userInfoResponseSchema } from '@mfa-portal/shared';
import { buildTestApp, TEST_PASSWORD, type TestApp } from '../../../test/app.js';
import { createTestDatabase } from '../../../test/database.js';
import { signIn } from '../../../test/oidc-flow.js';

const claimsHeader = (claims: object) => Buffer.from(JSON.stringify(claims)).toString('base64url');

describe('GET /account/getuserinfo', () => {
  let t: TestApp;
  let bob: string;
  beforeAll(async () => {
    t = await buildTestApp();
    bob = (await signIn(t.app, t.config, 'bob@example.com', TEST_PASSWORD)).access_token;
  });
  afterAll(() => t.close());
  afterEach(() => vi.useRealTimers());

  const call = (
    token: string | undefined,
    query = 'userid=bob@example.com&email=bob@example.com&firstname=Bob&lastname=Brown',
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method: 'GET',
      url: `/account/getuserinfo?${query}`,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', ...headers },
    });

  it('answers the signed-in user and their real MFA data from the provider', async () => {
    const res = await call(bob, undefined, {
      [CLAIMS_HEADER]: claimsHeader({ upn: 'bob@example.com', email: 'bob@example.com', given_name: 'Bob', family_name: 'Brown' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = userInfoResponseSchema.parse(res.json());
    expect(body.user).toMatchObject({
      upn: 'bob@example.com',
      email: 'bob@example.com',
      firstName: 'Bob',
      lastName: 'Brown',
      portalRole: 'staff',
      isProtected: false,
    });
    expect(body.mfa.provider).toBe('builtin');
    expect(body.mfa.status).toBe('active');
    expect(body.mfa.devices.map((d) => d.name).sort()).toEqual(['Duo D100 token', 'iPhone 15']);
    // The builtin provider cannot reach a phone: bob's iPhone 15 is the authenticator app on it, passcodes only.
    const app = body.mfa.devices.find((d) => d.name === 'iPhone 15')!;
    expect(app).toMatchObject({ kind: 'authenticator', capabilities: ['passcode'], phoneNumber: null });
    expect(body.mfa.bypassCodes).toEqual({ active: 0, nextExpiresAt: null });
  });

  it('reflects a change in the database on the next call (no stale copy)', async () => {
    const db = t.database.db;
    const user = await db.selectFrom('mfa_user').select('id').where('username', '=', 'bob@example.com').executeTakeFirstOrThrow();
    const expires = new Date(Date.now() + 3600_000);
    await db
      .insertInto('mfa_bypass_code')
      .values({ user_id: user.id, code_hash: 'test-hash-1', uses_left: 1, expires_at: expires, created_by: 'test' })
      .execute();
    // Made outside the API (as a job or script would): the change feed reports it to the read caches.
    expect(await t.app.changeFeed?.heard()).toBe(true);
    const body = (await call(bob)).json();
    expect(body.mfa.bypassCodes).toEqual({ active: 1, nextExpiresAt: expires.toISOString() });
    await db.deleteFrom('mfa_bypass_code').where('code_hash', '=', 'test-hash-1').execute();
  });

  it('gives roles and protection from the token', async () => {
    const admin = (await signIn(t.app, t.config, 'admin@example.com', TEST_PASSWORD)).access_token;
    const res = await call(admin, 'userid=admin@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ roles: ['Solution Administrator'], portalRole: 'solution_admin', isProtected: true });
  });

  it('reports a user disabled at the MFA provider, with the reason', async () => {
    // The embedded sign-in refuses a disabled user, so this one was disabled after signing in.
    const db = t.database.db;
    await db.updateTable('mfa_user').set({ status: 'active' }).where('username', '=', 'disabled@example.com').execute();
    const token = (await signIn(t.app, t.config, 'disabled@example.com', TEST_PASSWORD)).access_token;
    await db.updateTable('mfa_user').set({ status: 'disabled' }).where('username', '=', 'disabled@example.com').execute();
    expect(await t.app.changeFeed?.heard()).toBe(true);
    const res = await call(token, 'userid=disabled@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json().mfa).toMatchObject({ status: 'disabled', statusReason: 'Disabled by the security team' });
  });

  it('reports a user the MFA provider does not know as not provisioned', async () => {
    const token = (await signIn(t.app, t.config, 'nomfa@example.com', TEST_PASSWORD)).access_token;
    const res = await call(token, 'userid=nomfa@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json().mfa).toMatchObject({ status: 'not_provisioned', devices: [] });
  });

  it('401 auth.token_missing without a token', async () => {
    const res = await call(undefined);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_missing');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('401 before any validation: an anonymous caller with a bad query learns nothing more', async () => {
    const res = await call(undefined, 'nothing=1');
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['not a JWT', 'Bearer abc'],
    ['another scheme', `Basic ${Buffer.from('bob:pw').toString('base64')}`],
  ])('401 auth.token_invalid for %s', async (_label, authorization) => {
    const res = await t.app.inject({ url: '/account/getuserinfo?userid=bob@example.com', headers: { authorization } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_invalid');
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('401 auth.token_expired once the token has expired', async () => {
    const { exp } = JSON.parse(Buffer.from(bob.split('.')[1]!, 'base64url').toString());
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((exp + 60) * 1000);
    const res = await call(bob);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_expired');
  });

  it('401 for a forged token: a real token whose claims were edited', async () => {
    const [h, p, s] = bob.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = [
      h,
      Buffer.from(JSON.stringify({ ...claims, upn: 'admin@example.com', roles: ['Solution Administrator'] })).toString('base64url'),
      s,
    ].join('.');
    const res = await call(forged, 'userid=admin@example.com');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_invalid');
  });

  it('401 for a forged token: signed by another key under the provider key id', async () => {
    const { kid } = decodeProtectedHeader(bob);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ upn: 'bob@example.com', roles: [] })
      .setProtectedHeader({ alg: 'RS256', kid: kid!, typ: 'at+jwt' })
      .setIssuer(t.config.idp.mode === 'embedded' ? t.config.idp.issuer : '')
      .setAudience('api://mfa-portal')
      .setSubject('bob')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
    const res = await call(forged);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_invalid');
  });

  it('401 for a token with alg "none"', async () => {
    const [, p] = bob.split('.');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    const res = await t.app.inject({ url: '/account/getuserinfo?userid=bob@example.com', headers: { authorization: `Bearer ${none}` } });
    expect(res.statusCode).toBe(401);
  });

  it('403 auth.user_mismatch when userid is not the token upn', async () => {
    const res = await call(bob, 'userid=alice@example.com');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.user_mismatch');
  });

  it('403 when the claims header names another user', async () => {
    const res = await call(bob, undefined, { [CLAIMS_HEADER]: claimsHeader({ upn: 'alice@example.com' }) });
    expect(res.statusCode).toBe(403);
  });

  it('compares userid without regard to case', async () => {
    const res = await call(bob, 'userid=Bob@Example.com');
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['no userid', 'email=bob@example.com', 'userid'],
    ['an empty userid', 'userid=', 'userid'],
    ['an over-long email', `userid=bob@example.com&email=${'e'.repeat(300)}`, 'email'],
  ])('400 request.invalid for %s, naming the field', async (_label, query, field) => {
    const res = await call(bob, query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'request.invalid', details: { field } });
  });

  it.each([
    ['not base64url', '%%%'],
    ['not JSON', Buffer.from('hello').toString('base64url')],
    ['the wrong shape', claimsHeader({ upn: 42 })],
  ])('400 naming the claims header when it is %s', async (_label, value) => {
    const res = await call(bob, undefined, { [CLAIMS_HEADER]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'request.invalid', details: { field: CLAIMS_HEADER } });
  });
});

describe('GET /account/getuserinfo with a token for another API', () => {
  let issuing: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    issuing = await buildTestApp();
    // Same provider keys (same database), but this portal expects another audience.
    other = await buildTestApp({ EMBEDDED_API_AUDIENCE: 'api://another-portal' }, { database: issuing.database, seed: false });
  });
  afterAll(async () => {
    await other.close();
    await issuing.close();
  });

  it('401 auth.token_invalid for a wrong-audience token', async () => {
    const token = (await signIn(issuing.app, issuing.config, 'bob@example.com', TEST_PASSWORD)).access_token;
    expect(
      (await issuing.app.inject({ url: '/account/getuserinfo?userid=bob@example.com', headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(200);
    const res = await other.app.inject({
      url: '/account/getuserinfo?userid=bob@example.com',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_invalid');
  });
});

describe('GET /account/getuserinfo and the per-user read caches (issue 16)', () => {
  const query = '/account/getuserinfo?userid=bob@example.com';
  const addBypassCode = async (t: TestApp, hash: string) => {
    const db = t.database.db;
    const user = await db.selectFrom('mfa_user').select('id').where('username', '=', 'bob@example.com').executeTakeFirstOrThrow();
    await db
      .insertInto('mfa_bypass_code')
      .values({ user_id: user.id, code_hash: hash, uses_left: 1, expires_at: new Date(Date.now() + 3600_000), created_by: 'test' })
      .execute();
  };

  it('keeps the reads until a change: made here, the next call sees it at once; made elsewhere, when the feed reports it', async () => {
    // A feed that listens but never reports anything: what is kept stays kept, unless this instance changes something.
    const database = await createTestDatabase();
    const deaf = {
      ...database,
      subscribe: (_c: string, _m: (p: string) => void, onState: (l: boolean) => void) => (onState(true), async () => {}),
    };
    const t = await buildTestApp({}, { database: deaf });
    try {
      const bob = (await signIn(t.app, t.config, 'bob@example.com', TEST_PASSWORD)).access_token;
      const call = () => t.app.inject({ url: query, headers: { authorization: `Bearer ${bob}` } });
      expect((await call()).json().mfa.bypassCodes.active).toBe(0);
      await addBypassCode(t, 'cache-test-hash-1');
      // Kept: the change was made outside this instance and the feed (here) never told.
      expect((await call()).json().mfa.bypassCodes.active).toBe(0);
      const hits = await t.app.metrics.registry.getSingleMetricAsString('portal_read_cache_lookups_total');
      expect(hits).toMatch(/cache="user_data",result="hit"} [1-9]/);
      expect(hits).toMatch(/cache="revocation",result="hit"} [1-9]/);
      expect(hits).toMatch(/cache="token",result="hit"} [1-9]/);
      // A change through this instance (the sign-out) empties the caches before its answer leaves.
      const out = await t.app.inject({ method: 'POST', url: '/api/me/sign-out', headers: { authorization: `Bearer ${bob}` } });
      expect(out.statusCode).toBe(204);
      const after = await call();
      expect(after.statusCode).toBe(401);
      expect(after.json().code).toBe('auth.token_expired');
    } finally {
      await t.close();
      await database.close();
    }
  });

  it('with READ_CACHE=false, reads the database on every call', async () => {
    const t = await buildTestApp({ READ_CACHE: 'false' });
    try {
      // The change feed may still run (it also tells waiting pushes), but nothing is cached from it.
      const bob = (await signIn(t.app, t.config, 'bob@example.com', TEST_PASSWORD)).access_token;
      const call = () => t.app.inject({ url: query, headers: { authorization: `Bearer ${bob}` } });
      expect((await call()).json().mfa.bypassCodes.active).toBe(0);
      await addBypassCode(t, 'cache-test-hash-2');
      expect((await call()).json().mfa.bypassCodes.active).toBe(1);
    } finally {
      await t.close();
    }
  });
});
