import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJWK, SignJWT } from 'jose';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { loadIdpSecrets } from '../idp/secrets.js';

/**
 * Tokens signed with the embedded provider's real key, with one claim wrong at a time: the verifier
 * must refuse each, whatever else is right.
 */
describe('access-token validation with the provider key', () => {
  let t: TestApp;
  let sign: (claims: Record<string, unknown>, opts?: { nbf?: number; exp?: number; iss?: string; aud?: string }) => Promise<string>;

  beforeAll(async () => {
    t = await buildTestApp();
    const [key] = (await loadIdpSecrets(t.database.db)).signingKeys;
    const privateKey = await importJWK(key!, 'RS256');
    const issuer = t.config.idp.mode === 'embedded' ? t.config.idp.issuer : '';
    sign = async (claims, opts = {}) => {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT({ upn: 'bob@example.com', roles: [], scp: 'access_as_user', ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: key!.kid!, typ: 'at+jwt' })
        .setIssuer(opts.iss ?? issuer)
        .setAudience(opts.aud ?? 'api://mfa-portal')
        .setSubject('bob-subject')
        .setIssuedAt(now)
        .setExpirationTime(opts.exp ?? now + 600);
      if (opts.nbf !== undefined) jwt.setNotBefore(opts.nbf);
      return jwt.sign(privateKey);
    };
  });
  afterAll(() => t.close());

  const call = (token: string) =>
    t.app.inject({ url: '/account/getuserinfo?userid=bob@example.com', headers: { authorization: `Bearer ${token}` } });

  it('accepts a well-formed token (control case)', async () => {
    expect((await call(await sign({}))).statusCode).toBe(200);
  });

  it('refuses a token that is not valid yet (not-before in the future)', async () => {
    const res = await call(await sign({}, { nbf: Math.floor(Date.now() / 1000) + 600 }));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_invalid');
  });

  it('refuses an expired token with auth.token_expired', async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await call(await sign({}, { exp: now - 120 }));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_expired');
  });

  it('refuses another issuer', async () => {
    expect((await call(await sign({}, { iss: 'https://evil.example.org/idp' }))).statusCode).toBe(401);
  });

  it('refuses another audience', async () => {
    expect((await call(await sign({}, { aud: 'api://something-else' }))).statusCode).toBe(401);
  });

  it('refuses a token naming no user', async () => {
    const res = await call(await sign({ upn: undefined }));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_invalid');
  });

  it('accepts the scope among others in scp (space-separated)', async () => {
    expect((await call(await sign({ scp: 'User.Read access_as_user openid' }))).statusCode).toBe(200);
  });

  it('refuses a token for the right audience without the portal scope: 403 auth.scope_missing', async () => {
    const res = await call(await sign({ scp: 'User.Read access_as_admin' }));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.scope_missing');
    expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="access_as_user"');
  });

  it('refuses an application token (no scp, or idtyp app): 403 auth.app_token_not_allowed', async () => {
    for (const claims of [
      { scp: undefined },
      { scp: '' },
      { scp: 'access_as_user', idtyp: 'app' },
      { scp: undefined, roles: ['Solution Administrator'] },
    ]) {
      const res = await call(await sign(claims));
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('auth.app_token_not_allowed');
    }
  });

  it('does not take a scope name that merely contains the portal scope', async () => {
    const res = await call(await sign({ scp: 'access_as_user_extra' }));
    expect(res.json().code).toBe('auth.scope_missing');
  });
});
