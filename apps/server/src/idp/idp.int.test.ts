import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServices } from '../../test/app.js';
import { createTestDatabase } from '../../test/database.js';
import { loadConfig, type AppConfig } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { seedDemoStaff } from '../demo/seed.js';
import { createMfaProvider, type MfaProvider } from '../mfa/index.js';
import { registerEmbeddedIdp, type EmbeddedIdp } from './index.js';
import { LOGIN_RATE_LIMIT } from './interaction.routes.js';
import {
  answerSecondFactor,
  authorizeUrl,
  followToClient,
  formAction,
  injectTransport,
  location,
  pkce,
  TestBrowser,
  tlsTransport,
  tokenRequest,
  type Client,
  type HttpResponse,
  type TokenResponse,
  type Transport,
} from '../../test/oidc-test-client.js';

const PASSWORD = 'correct horse battery';
const config: AppConfig = loadConfig({
  NODE_ENV: 'test',
  DEMO_PASSWORD: PASSWORD,
  LOG_LEVEL: 'silent',
  MFA_SECRETS_KEY: randomBytes(32).toString('base64'),
});
if (config.idp.mode !== 'embedded') throw new Error('embedded mode expected');
const idpConfig = config.idp;
const client: Client = { issuer: idpConfig.issuer, clientId: idpConfig.clientId, redirectUri: config.publicUrl };
/** What MSAL asks for at sign-in: its OIDC defaults, the spec's scopes and the API scope. */
const LOGIN_SCOPE = `openid profile offline_access user.read ${idpConfig.scope}`;

async function startIdp(database: DatabaseHandle, opts: { https?: { key: string; cert: string } } = {}) {
  const app = Fastify({ logger: false, ...(opts.https ? { https: opts.https } : {}) }) as unknown as FastifyInstance;
  const mfa = createMfaProvider(config, database.db);
  const { audit, verification } = testServices(config, database, mfa);
  const idp = await registerEmbeddedIdp(app, { db: database.db, config, mfa, audit, verification });
  await app.ready();
  mfas.set(app, mfa);
  return { app, idp };
}

const mfas = new WeakMap<FastifyInstance, MfaProvider>();

/** A single-use bypass code for `username`, minted at the MFA provider (the second factor of demo staff with devices). */
async function bypassCodeFor(app: FastifyInstance, username: string): Promise<string> {
  const created = await mfas.get(app)!.createBypassCodes(username.toLowerCase(), {
    count: 1,
    validitySeconds: 300,
    reuseCount: 1,
    replaceExisting: false,
    createdBy: 'idp test',
  });
  return created.codes[0]!.code;
}

/** Authorize → login page → credentials; returns the login page, the POST answer and, on success, the code. */
async function signIn(browser: TestBrowser, username: string, password: string, scope = LOGIN_SCOPE) {
  const { verifier, challenge } = pkce();
  const state = 'st-' + Math.random().toString(36).slice(2);
  const start = await browser.get(authorizeUrl(client, { scope, challenge, state }));
  const interaction = location(start, config.publicUrl);
  const page = await browser.get(interaction);
  const action = formAction(page.body);
  if (!action) throw new Error(`no login form: ${page.status} ${page.body.slice(0, 300)}`);
  const answer = await browser.post(new URL(action, interaction), { username, password });
  return { page, answer, verifier, state, interaction };
}

/** Signs in through the real pages; a user with a device answers the Passcode page with a fresh bypass code. */
async function signInForTokens(app: FastifyInstance, browser: TestBrowser, username: string, scope = LOGIN_SCOPE) {
  const { answer: afterPassword, verifier, state } = await signIn(browser, username, PASSWORD, scope);
  const { answer } = await answerSecondFactor(browser, afterPassword, () => bypassCodeFor(app, username), config.publicUrl);
  const back = await followToClient(browser, answer, client, config.publicUrl);
  expect(back.searchParams.get('state')).toBe(state);
  const code = back.searchParams.get('code');
  expect(code, back.href).toBeTruthy();
  const res = await tokenRequest(browser, client, {
    grant_type: 'authorization_code',
    code: code!,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
  });
  expect(res.status, res.body).toBe(200);
  return JSON.parse(res.body) as TokenResponse;
}

function verifyWith(idp: EmbeddedIdp) {
  return (jwt: string, audience: string) =>
    jwtVerify(jwt, createLocalJWKSet(idp.publicJwks), { issuer: idp.issuer, audience, algorithms: ['RS256'] });
}

describe('embedded identity provider', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let idp: EmbeddedIdp;
  let transport: Transport;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDemoStaff(database.db, { password: PASSWORD });
    ({ app, idp } = await startIdp(database));
    transport = injectTransport(app);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  describe('GET /idp/.well-known/openid-configuration', () => {
    it('publishes the issuer and every endpoint under /idp', async () => {
      const res = await new TestBrowser(transport).get(`${idp.issuer}/.well-known/openid-configuration`);
      expect(res.status).toBe(200);
      const doc = JSON.parse(res.body) as Record<string, unknown>;
      expect(doc.issuer).toBe('https://localhost:8443/idp');
      expect(doc.authorization_endpoint).toBe('https://localhost:8443/idp/auth');
      expect(doc.token_endpoint).toBe('https://localhost:8443/idp/token');
      expect(doc.jwks_uri).toBe('https://localhost:8443/idp/jwks');
      expect(doc.end_session_endpoint).toBe('https://localhost:8443/idp/session/end');
      expect(doc.code_challenge_methods_supported).toEqual(['S256']);
      expect(doc.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'offline_access', 'user.read']));
      expect(doc.claims_supported).toEqual(expect.arrayContaining(['upn', 'email', 'given_name', 'family_name', 'name', 'roles']));
    });

    it('answers an unknown path under /idp with the portal 404 body', async () => {
      const res = await new TestBrowser(transport).get(`${idp.issuer}/no-such-endpoint`);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'route.not_found' });
    });

    it('serves only the public half of the signing keys as JWKS', async () => {
      const res = await new TestBrowser(transport).get(`${idp.issuer}/jwks`);
      const jwks = JSON.parse(res.body) as { keys: Record<string, unknown>[] };
      expect(jwks.keys).toHaveLength(1);
      expect(jwks.keys[0]).not.toHaveProperty('d');
      expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: idp.publicJwks.keys[0]!.kid });
      expect(idp.publicJwks.keys[0]).not.toHaveProperty('d');
    });
  });

  describe('login page', () => {
    it('shows labelled Username and Password fields and a Sign in button, styled without inline CSS or script', async () => {
      const browser = new TestBrowser(transport);
      const { challenge } = pkce();
      const start = await browser.get(authorizeUrl(client, { scope: LOGIN_SCOPE, challenge }));
      expect(start.status).toBe(303);
      const interaction = location(start, config.publicUrl);
      expect(interaction.pathname).toMatch(/^\/idp\/interaction\/[A-Za-z0-9_-]+$/);

      const page = await browser.get(interaction);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toMatch(/<h1>MFA self-service portal<\/h1>/);
      expect(page.body).toMatch(/<label for="username">Username<\/label>/);
      expect(page.body).toMatch(/<input id="username" name="username" type="text"[^>]*autocomplete="username"/);
      expect(page.body).toMatch(/<label for="password">Password<\/label>/);
      expect(page.body).toMatch(/<input id="password" name="password" type="password"[^>]*autocomplete="current-password"/);
      expect(page.body).toMatch(/<button type="submit">Sign in<\/button>/);
      expect(page.body).toContain(`action="${interaction.pathname}/login"`);
      expect(page.body).toContain('<link rel="stylesheet" href="/idp/assets/login.css">');
      expect(page.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    });

    it('serves its stylesheet as CSS', async () => {
      const res = await new TestBrowser(transport).get('https://localhost:8443/idp/assets/login.css');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/css/);
      expect(res.body).toContain('.card');
    });

    it('prefills and escapes the login_hint', async () => {
      const browser = new TestBrowser(transport);
      const { challenge } = pkce();
      const url = authorizeUrl(client, { scope: LOGIN_SCOPE, challenge });
      url.searchParams.set('login_hint', '"><script>alert(1)</script>');
      const page = await browser.get(location(await browser.get(url), config.publicUrl));
      expect(page.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
      expect(page.body).not.toContain('<script>');
    });

    it('refuses a wrong password with the generic message and no redirect', async () => {
      const { answer } = await signIn(new TestBrowser(transport), 'bob@example.com', 'not the password');
      expect(answer.status).toBe(401);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.body).toContain('Incorrect username or password.');
      expect(answer.body).toContain('value="bob@example.com"');
      expect(answer.body).toMatch(/<label for="password">Password<\/label>/);
    });

    it('gives an unknown user exactly the same answer', async () => {
      const { answer } = await signIn(new TestBrowser(transport), 'nobody@example.com', 'whatever-it-is');
      expect(answer.status).toBe(401);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.body).toContain('Incorrect username or password.');
    });

    it('says the page expired when the interaction cookie is missing', async () => {
      const { interaction } = await signIn(new TestBrowser(transport), 'bob@example.com', 'nope-nope');
      const res = await new TestBrowser(transport).get(interaction);
      expect(res.status).toBe(400);
      expect(res.body).toContain('This sign-in page has expired');
    });

    it(`rate-limits password attempts after ${LOGIN_RATE_LIMIT.perUsername.max} per minute for one username`, async () => {
      const browser = new TestBrowser(transport);
      const { answer: first, interaction } = await signIn(browser, 'helpdesk@example.com', 'wrong-1');
      expect(first.status).toBe(401);
      const action = new URL(`${interaction.pathname}/login`, config.publicUrl);
      const statuses: number[] = [];
      for (let i = 0; i < LOGIN_RATE_LIMIT.perUsername.max; i++) {
        statuses.push((await browser.post(action, { username: 'HELPDESK@example.com', password: `wrong-${i}` })).status);
      }
      expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
      const limited = statuses.at(-1);
      expect(limited).toBe(429);
      const blocked = await browser.post(action, { username: 'helpdesk@example.com', password: PASSWORD });
      expect(blocked.status).toBe(429);
      expect(blocked.headers['retry-after']).toBeDefined();
      expect(blocked.body).toContain('Too many sign-in attempts');
      expect(blocked.body).toMatch(/<label for="username">Username<\/label>/);
    });
  });

  describe('authorization code + PKCE', () => {
    let tokens: TokenResponse;
    let browser: TestBrowser;

    beforeAll(async () => {
      browser = new TestBrowser(transport);
      tokens = await signInForTokens(app, browser, 'Admin@Example.com');
    });

    it('returns an ID token with the identity claims of the account', async () => {
      const { payload } = await verifyWith(idp)(tokens.id_token!, client.clientId);
      expect(payload).toMatchObject({
        iss: 'https://localhost:8443/idp',
        aud: client.clientId,
        upn: 'admin@example.com',
        preferred_username: 'admin@example.com',
        email: 'admin@example.com',
        given_name: 'Ada',
        family_name: 'Admin',
        name: 'Ada Admin',
        roles: ['Solution Administrator'],
        // Ada has a device: the password and the Passcode page.
        amr: ['pwd', 'mfa'],
      });
      expect(payload.sub).toMatch(/^[0-9a-f-]{36}$/);
      expect(payload.nonce).toBeTruthy();
    });

    it('returns a JWT access token for the API audience, verifiable with publicJwks', async () => {
      const { payload, protectedHeader } = await verifyWith(idp)(tokens.access_token, idpConfig.audience);
      expect(protectedHeader.alg).toBe('RS256');
      expect(protectedHeader.kid).toBe(idp.publicJwks.keys[0]!.kid);
      expect(payload).toMatchObject({
        iss: 'https://localhost:8443/idp',
        aud: 'api://mfa-portal',
        client_id: client.clientId,
        upn: 'admin@example.com',
        email: 'admin@example.com',
        given_name: 'Ada',
        family_name: 'Admin',
        name: 'Ada Admin',
        roles: ['Solution Administrator'],
        amr: ['pwd', 'mfa'],
        scope: 'api://mfa-portal/access_as_user',
        scp: 'access_as_user',
      });
      expect(payload.exp! - payload.iat!).toBe(3600);
      expect(tokens.scope).toContain('api://mfa-portal/access_as_user');
      expect(tokens.expires_in).toBeGreaterThan(3500);
    });

    it('issues a refresh token that works when MSAL asks for offline_access again', async () => {
      expect(tokens.refresh_token).toBeTruthy();
      const res = await tokenRequest(browser, client, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        scope: `${idpConfig.scope} openid profile offline_access`,
      });
      expect(res.status, res.body).toBe(200);
      const refreshed = JSON.parse(res.body) as TokenResponse;
      expect(refreshed.refresh_token).toBeTruthy();
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      const { payload } = await verifyWith(idp)(refreshed.access_token, idpConfig.audience);
      expect(payload).toMatchObject({ upn: 'admin@example.com', roles: ['Solution Administrator'], amr: ['pwd', 'mfa'] });
      const id = decodeJwt(refreshed.id_token!);
      expect(id).toMatchObject({ upn: 'admin@example.com', given_name: 'Ada', family_name: 'Admin', roles: ['Solution Administrator'] });
      tokens = refreshed;
    });

    it('rotates refresh tokens without extending their 12 h lifetime', async () => {
      const b = new TestBrowser(transport);
      const first = await signInForTokens(app, b, 'bob@example.com');
      const original = await idp.provider.RefreshToken.find(first.refresh_token!);
      expect(original!.exp! - original!.iat!).toBe(12 * 60 * 60);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const res = await tokenRequest(b, client, { grant_type: 'refresh_token', refresh_token: first.refresh_token! });
      const rotated = await idp.provider.RefreshToken.find((JSON.parse(res.body) as TokenResponse).refresh_token!);
      expect(Math.abs(rotated!.exp! - original!.exp!)).toBeLessThanOrEqual(1);
    });

    it('refuses a refresh token that was already used', async () => {
      const first = await tokenRequest(browser, client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
      expect(first.status).toBe(200);
      const again = await tokenRequest(browser, client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
      expect(again.status).toBe(400);
      expect(JSON.parse(again.body)).toMatchObject({ error: 'invalid_grant' });
    });

    it('refuses a code redeemed without the PKCE verifier', async () => {
      const b = new TestBrowser(transport);
      const { answer } = await signIn(b, 'alice@example.com', PASSWORD);
      const back = await followToClient(b, answer, client, config.publicUrl);
      const res = await tokenRequest(b, client, {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: client.redirectUri,
      });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_grant' });
    });

    it('refuses an authorization request without PKCE', async () => {
      const url = authorizeUrl(client, { scope: LOGIN_SCOPE, challenge: 'x' });
      url.searchParams.delete('code_challenge');
      url.searchParams.delete('code_challenge_method');
      const res = await new TestBrowser(transport).get(url);
      const back = location(res, config.publicUrl);
      expect(back.searchParams.get('error')).toBe('invalid_request');
    });
  });

  describe('silent renewal (prompt=none)', () => {
    it('answers with a new code from the session, and its refresh token accepts offline_access', async () => {
      const browser = new TestBrowser(transport);
      await signInForTokens(app, browser, 'bob@example.com');

      const { verifier, challenge } = pkce();
      const url = authorizeUrl(
        { ...client, redirectUri: `${config.publicUrl}auth-bridge.html` },
        { scope: LOGIN_SCOPE, challenge, prompt: 'none' },
      );
      const res = await browser.get(url);
      const back = location(res, config.publicUrl);
      expect(back.pathname).toBe('/auth-bridge.html');
      const code = back.searchParams.get('code');
      expect(code, back.href).toBeTruthy();
      const tokenRes = await tokenRequest(browser, client, {
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: `${config.publicUrl}auth-bridge.html`,
        code_verifier: verifier,
      });
      expect(tokenRes.status, tokenRes.body).toBe(200);
      const silent = JSON.parse(tokenRes.body) as TokenResponse;
      expect(decodeJwt(silent.access_token)).toMatchObject({ aud: 'api://mfa-portal', upn: 'bob@example.com' });
      expect(silent.refresh_token).toBeTruthy();

      // oidc-provider drops offline_access from a prompt=none request; MSAL still sends it when refreshing.
      const refresh = await tokenRequest(browser, client, {
        grant_type: 'refresh_token',
        refresh_token: silent.refresh_token!,
        scope: `${idpConfig.scope} openid profile offline_access`,
      });
      expect(refresh.status, refresh.body).toBe(200);
    });

    it('answers login_required without a session', async () => {
      const { challenge } = pkce();
      const res = await new TestBrowser(transport).get(authorizeUrl(client, { scope: LOGIN_SCOPE, challenge, prompt: 'none' }));
      expect(location(res, config.publicUrl).searchParams.get('error')).toBe('login_required');
    });
  });

  describe('sign-out', () => {
    it('asks for confirmation with a Sign out button, then ends the session and its tokens', async () => {
      const browser = new TestBrowser(transport);
      const tokens = await signInForTokens(app, browser, 'alice@example.com');

      const end = new URL(`${idp.issuer}/session/end`);
      end.search = new URLSearchParams({
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: `${config.publicUrl}loggedout`,
        client_id: client.clientId,
      }).toString();
      const page = await browser.get(end);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>');
      expect(page.body).not.toMatch(/<script|<style|\sstyle=/i);
      const action = formAction(page.body)!;
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
      expect(xsrf).toBeTruthy();

      const confirmed = await browser.post(new URL(action, end), { xsrf: xsrf!, logout: 'yes' });
      expect(location(confirmed, config.publicUrl).href).toBe('https://localhost:8443/loggedout');

      const refresh = await tokenRequest(browser, client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
      expect(refresh.status).toBe(400);
      const { challenge } = pkce();
      const silent = await browser.get(authorizeUrl(client, { scope: LOGIN_SCOPE, challenge, prompt: 'none' }));
      expect(location(silent, config.publicUrl).searchParams.get('error')).toBe('login_required');
    });
  });
});

describe('embedded identity provider persistence', () => {
  it('keeps signing keys, sessions and refresh tokens across a restart on the same database', async () => {
    const database = await createTestDatabase();
    try {
      await seedDemoStaff(database.db, { password: PASSWORD });
      const first = await startIdp(database);
      const browser = new TestBrowser(injectTransport(first.app));
      const tokens = await signInForTokens(first.app, browser, 'bob@example.com');
      const keys = first.idp.publicJwks;
      await first.app.close();

      const second = await startIdp(database);
      try {
        expect(second.idp.publicJwks).toEqual(keys);
        await verifyWith(second.idp)(tokens.access_token, idpConfig.audience);

        const restarted = browser.withTransport(injectTransport(second.app));
        const { verifier, challenge } = pkce();
        const silent = await restarted.get(authorizeUrl(client, { scope: LOGIN_SCOPE, challenge, prompt: 'none' }));
        const back = location(silent, config.publicUrl);
        expect(back.searchParams.get('code'), back.href).toBeTruthy();
        const redeemed = await tokenRequest(restarted, client, {
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          redirect_uri: client.redirectUri,
          code_verifier: verifier,
        });
        expect(redeemed.status, redeemed.body).toBe(200);

        const refresh = await tokenRequest(restarted, client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
        expect(refresh.status, refresh.body).toBe(200);
      } finally {
        await second.app.close();
      }
    } finally {
      await database.close();
    }
  });
});

describe('embedded identity provider over TLS', () => {
  it('completes sign-in through a real HTTPS socket (raw request streams handed to the provider)', async () => {
    const database = await createTestDatabase();
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048, algorithm: 'sha256' });
    const { app, idp } = await startIdp(database, { https: { key: pems.private, cert: pems.cert } });
    try {
      await seedDemoStaff(database.db, { password: PASSWORD });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const port = (app.server.address() as { port: number }).port;
      const browser = new TestBrowser(tlsTransport(port));
      const discovery: HttpResponse = await browser.get(`${idp.issuer}/.well-known/openid-configuration`);
      expect(JSON.parse(discovery.body)).toMatchObject({ token_endpoint: 'https://localhost:8443/idp/token' });
      const tokens = await signInForTokens(app, browser, 'helpdesk@example.com');
      const { payload } = await verifyWith(idp)(tokens.access_token, idpConfig.audience);
      expect(payload).toMatchObject({ upn: 'helpdesk@example.com', roles: ['Helpdesk Administrator'] });
      expect(browser.cookieNames()).toEqual(expect.arrayContaining(['_idp_session', '_idp_session.sig']));
    } finally {
      await app.close();
      await database.close();
    }
  });
});
