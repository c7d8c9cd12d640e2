import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import { EntraStandin } from './entra-standin.js';
import { redirectParams, request, signInForCode, tokenRequest, type SignInResult } from './standin-client.js';

/** The Entra stand-in itself: what the portal's tests rely on it to check and to issue. */
const REDIRECT = 'https://localhost:9801/';
const PASSWORD = 'standin-pw';

describe('the Entra stand-in', () => {
  let s: EntraStandin;
  beforeAll(async () => {
    s = await new EntraStandin({ port: 9810, redirectUris: [REDIRECT, `${REDIRECT}loggedout`] }).start();
    s.addUser({ username: 'Bob@Example.com', givenName: 'Bob', familyName: 'Brown', password: PASSWORD });
    s.addUser({
      username: 'hd@example.com',
      givenName: 'Hana',
      familyName: 'Helpdesk',
      roles: ['Helpdesk.Administrator'],
      password: PASSWORD,
    });
  });
  afterAll(() => s.close());

  const jwks = async () => createLocalJWKSet(JSON.parse((await request(s, `/${s.tenantId}/discovery/v2.0/keys`)).body) as JSONWebKeySet);
  const signIn = async (username = 'bob@example.com', scope?: string) => {
    const r = await signInForCode(s, { username, password: PASSWORD, redirectUri: REDIRECT, ...(scope ? { scope } : {}) });
    if ('error' in r) throw new Error(`refused: ${r.error.get('error_description')}`);
    return r;
  };
  const redeem = (r: SignInResult, scope = s.apiScope) =>
    tokenRequest(s, {
      grant_type: 'authorization_code',
      code: r.code,
      code_verifier: r.verifier,
      redirect_uri: REDIRECT,
      scope: `${scope} openid profile offline_access`,
    });

  it("publishes Entra's discovery document for the tenant, and nothing for another tenant", async () => {
    const doc = JSON.parse((await request(s, `/${s.tenantId}/v2.0/.well-known/openid-configuration`)).body) as Record<string, string>;
    expect(doc).toMatchObject({
      issuer: `${s.url}/${s.tenantId}/v2.0`,
      authorization_endpoint: `${s.url}/${s.tenantId}/oauth2/v2.0/authorize`,
      token_endpoint: `${s.url}/${s.tenantId}/oauth2/v2.0/token`,
      end_session_endpoint: `${s.url}/${s.tenantId}/oauth2/v2.0/logout`,
      jwks_uri: `${s.url}/${s.tenantId}/discovery/v2.0/keys`,
    });
    // By a verified domain: the same document, naming the tenant by its GUID.
    const byDomain = JSON.parse((await request(s, `/${s.domain}/v2.0/.well-known/openid-configuration`)).body) as Record<string, string>;
    expect(byDomain.issuer).toBe(`${s.url}/${s.tenantId}/v2.0`);
    const other = await request(s, `/00000000-0000-0000-0000-000000000000/v2.0/.well-known/openid-configuration`);
    expect(other.status).toBe(400);
    expect(other.body).toContain('AADSTS90002');
  });

  it('shows a sign-in form, and refuses a wrong password on it', async () => {
    const form = await request(
      s,
      `/${s.tenantId}/oauth2/v2.0/authorize?client_id=${s.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid&code_challenge=x&code_challenge_method=S256`,
    );
    expect(form.status).toBe(200);
    expect(form.body).toContain('name="passwd"');
    await expect(signInForCode(s, { username: 'bob@example.com', password: 'wrong', redirectUri: REDIRECT })).rejects.toThrow(
      /answered 200: .*incorrect/s,
    );
  });

  it('never redirects to an unregistered address or for an unknown client', async () => {
    const bad = await request(
      s,
      `/${s.tenantId}/oauth2/v2.0/authorize?client_id=${s.clientId}&redirect_uri=${encodeURIComponent('https://evil.example/')}&response_type=code&scope=openid`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('AADSTS50011');
    const client = await request(
      s,
      `/${s.tenantId}/oauth2/v2.0/authorize?client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid`,
    );
    expect(client.body).toContain('AADSTS700016');
  });

  it('requires PKCE S256 (an error sent back to the redirect URI)', async () => {
    const res = await request(
      s,
      `/${s.tenantId}/oauth2/v2.0/authorize?client_id=${s.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid&state=st`,
    );
    const back = redirectParams(res.headers.location);
    expect(back.get('error')).toBe('invalid_request');
    expect(back.get('error_description')).toMatch(/^AADSTS9002325:/);
    expect(back.get('state')).toBe('st');
  });

  it('redeems a code once, with the right PKCE verifier, cross-origin only: v2 access token, ID token, refresh token', async () => {
    const r = await signIn();
    expect(
      (
        await tokenRequest(
          s,
          { grant_type: 'authorization_code', code: r.code, code_verifier: r.verifier, redirect_uri: REDIRECT, scope: s.apiScope },
          null,
        )
      ).json.error_codes,
    ).toEqual([9002327]);
    // A redemption with the wrong verifier spends the code (a second try is refused as redeemed).
    const wrong = await tokenRequest(s, {
      grant_type: 'authorization_code',
      code: r.code,
      code_verifier: 'x'.repeat(43),
      redirect_uri: REDIRECT,
      scope: s.apiScope,
    });
    expect(wrong.json).toMatchObject({ error: 'invalid_grant', error_codes: [501481] });

    const r3 = await signIn();
    const ok = await redeem(r3);
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://localhost:9801');
    expect(ok.json).toMatchObject({ token_type: 'Bearer', scope: s.apiScope });
    const { payload } = await jwtVerify(ok.json.access_token as string, await jwks(), { issuer: s.v2Issuer, audience: s.apiAppId });
    expect(payload).toMatchObject({
      ver: '2.0',
      scp: 'access_as_user',
      preferred_username: 'bob@example.com',
      tid: s.tenantId,
      azp: s.clientId,
    });
    expect(payload.upn).toBeUndefined();
    expect(payload.oid).toBe(s.user('bob@example.com').oid);
    const id = decodeJwt(ok.json.id_token as string);
    expect(id).toMatchObject({ aud: s.clientId, nonce: 'nonce-1', preferred_username: 'bob@example.com', iss: s.v2Issuer });
    expect(JSON.parse(Buffer.from(ok.json.client_info as string, 'base64url').toString())).toEqual({
      uid: s.user('bob@example.com').oid,
      utid: s.tenantId,
    });

    const again = await redeem(r3);
    expect(again.json).toMatchObject({ error: 'invalid_grant', error_codes: [54005] });

    const refreshed = await tokenRequest(s, {
      grant_type: 'refresh_token',
      refresh_token: ok.json.refresh_token as string,
      scope: `${s.apiScope} openid offline_access`,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).not.toBe(ok.json.refresh_token);
    s.revokeRefreshTokens('bob@example.com');
    const revoked = await tokenRequest(s, {
      grant_type: 'refresh_token',
      refresh_token: refreshed.json.refresh_token as string,
      scope: s.apiScope,
    });
    expect(revoked.json).toMatchObject({ error: 'invalid_grant', error_codes: [50173] });
  });

  it('gives a Microsoft Graph token when the sign-in asks for User.Read only', async () => {
    const ok = await redeem(await signIn(), 'User.Read');
    expect(decodeJwt(ok.json.access_token as string).aud).toBe('00000003-0000-0000-c000-000000000000');
  });

  it('issues v1 tokens (sts.windows.net issuer, App ID URI audience, upn) and app role values in roles', async () => {
    s.accessTokenVersion = 1;
    try {
      const ok = await redeem(await signIn('hd@example.com'));
      const { payload } = await jwtVerify(ok.json.access_token as string, await jwks(), {
        issuer: `https://sts.windows.net/${s.tenantId}/`,
        audience: s.appIdUri,
      });
      expect(payload).toMatchObject({
        ver: '1.0',
        upn: 'hd@example.com',
        scp: 'access_as_user',
        roles: ['Helpdesk.Administrator'],
        appid: s.clientId,
      });
    } finally {
      s.accessTokenVersion = 2;
    }
  });

  it('puts upn into v2 tokens when the optional claim is configured', async () => {
    s.upnInV2 = true;
    try {
      expect(decodeJwt(await s.accessToken('bob@example.com')).upn).toBe('bob@example.com');
    } finally {
      s.upnInV2 = false;
    }
  });

  it('answers refusals as Entra does, to the redirect URI: consent, assignment, interaction', async () => {
    for (const [refusal, error, code] of [
      ['consent_required', 'consent_required', 'AADSTS65001'],
      ['not_assigned', 'interaction_required', 'AADSTS50105'],
      ['interaction_required', 'interaction_required', 'AADSTS50076'],
    ] as const) {
      s.refuse('bob@example.com', refusal);
      const r = await signInForCode(s, { username: 'bob@example.com', password: PASSWORD, redirectUri: REDIRECT });
      expect('error' in r && r.error.get('error')).toBe(error);
      expect('error' in r && r.error.get('error_description')).toMatch(new RegExp(`^${code}:`));
    }
    s.refuse('bob@example.com', null);
  });

  it('answers prompt=none from the session, login_required without one', async () => {
    const r = await signIn();
    const url = `/${s.tenantId}/oauth2/v2.0/authorize?client_id=${s.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid&prompt=none&code_challenge=abc&code_challenge_method=S256`;
    expect(redirectParams((await request(s, url, { headers: { cookie: r.cookie } })).headers.location).get('code')).toBeTruthy();
    expect(redirectParams((await request(s, url)).headers.location).get('error')).toBe('login_required');
  });

  it('ends the session at logout and goes back to a registered address only', async () => {
    const r = await signIn();
    const out = await request(
      s,
      `/${s.tenantId}/oauth2/v2.0/logout?post_logout_redirect_uri=${encodeURIComponent(`${REDIRECT}loggedout`)}`,
      { headers: { cookie: r.cookie } },
    );
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe(`${REDIRECT}loggedout`);
    const silent = `/${s.tenantId}/oauth2/v2.0/authorize?client_id=${s.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid&prompt=none&code_challenge=abc&code_challenge_method=S256`;
    expect(redirectParams((await request(s, silent, { headers: { cookie: r.cookie } })).headers.location).get('error')).toBe(
      'login_required',
    );
    const elsewhere = await request(
      s,
      `/${s.tenantId}/oauth2/v2.0/logout?post_logout_redirect_uri=${encodeURIComponent('https://evil.example/')}`,
    );
    expect(elsewhere.status).toBe(200);
  });

  it('rolls its signing key over on demand, keeping or withdrawing the old one', async () => {
    const old = s.signingKey.kid;
    await s.rolloverKeys();
    const kids = () =>
      request(s, `/${s.tenantId}/discovery/v2.0/keys`).then((r) =>
        (JSON.parse(r.body) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid),
      );
    expect(await kids()).toEqual([old, s.signingKey.kid]);
    await s.rolloverKeys({ retireOld: true });
    expect(await kids()).toEqual([s.signingKey.kid]);
    s.keysAvailable = false;
    expect((await request(s, `/${s.tenantId}/discovery/v2.0/keys`)).status).toBe(503);
    s.keysAvailable = true;
  });
});
