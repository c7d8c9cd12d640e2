import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webauthnOptionsResponseSchema } from '@mfa-portal/shared';
import { TEST_PASSWORD } from '../../test/app.js';
import { createSoftAuthenticator } from '../../test/webauthn/soft-authenticator.js';
import { addUser, auditEvents, meTestApp, type MeTestApp } from '../../test/me-api.js';
import {
  authorizeUrl,
  followToClient,
  formAction,
  injectTransport,
  location,
  pkce,
  TestBrowser,
  tokenRequest,
  type Client,
} from '../../test/oidc-test-client.js';

/**
 * A passkey as the second factor of the embedded sign-in, through the real pages: the
 * second page offers it (a static script, no inline code), its options are bound to the interaction,
 * and a good assertion signs in with amr pwd+mfa while a wrong or replayed one signs nobody in.
 */

const ORIGIN = 'https://localhost:8443';
let m: MeTestApp;
let client: Client;
let base: string;
let scope: string;
const UPN = 'passkey-signin@example.com';
const auth = createSoftAuthenticator({ origin: ORIGIN, rpId: 'localhost', transports: ['internal'], attachment: 'platform' });

beforeAll(async () => {
  m = await meTestApp({ MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '1000' });
  const { config } = m.t;
  if (config.idp.mode !== 'embedded') throw new Error('embedded mode expected');
  base = config.publicUrl;
  client = { issuer: config.idp.issuer, clientId: config.idp.clientId, redirectUri: base };
  scope = `openid profile offline_access user.read ${config.idp.scope}`;
  await addUser(m.db, UPN);
  const start = await m.call(UPN, 'POST', '/webauthn/registration');
  const { challengeId, options } = webauthnOptionsResponseSchema.parse(start.json());
  const done = await m.call(UPN, 'POST', '/webauthn/registration/verify', {
    challengeId,
    name: 'Laptop',
    response: auth.register(options as { challenge: string }),
  });
  expect(done.statusCode).toBe(201);
});
afterAll(() => m?.close());

/** Authorize → password → the second page; its passkey form and options URL. */
async function secondPage() {
  const browser = new TestBrowser(injectTransport(m.t.app));
  const { verifier, challenge } = pkce();
  const state = `st-${Math.random().toString(36).slice(2)}`;
  const interaction = location(await browser.get(authorizeUrl(client, { scope, challenge, state })), base);
  const login = await browser.get(interaction);
  const afterPassword = await browser.post(new URL(formAction(login.body)!, interaction), { username: UPN, password: TEST_PASSWORD });
  const pageUrl = location(afterPassword, base);
  const page = await browser.get(pageUrl);
  const optionsUrl = /data-options-url="([^"]+)"/.exec(page.body)?.[1];
  const action = /<form[^>]*action="([^"]+)"[^>]*id="webauthn-form"/.exec(page.body)?.[1];
  return {
    browser,
    verifier,
    state,
    pageUrl,
    page,
    optionsUrl: optionsUrl && new URL(optionsUrl, pageUrl),
    action: action && new URL(action, pageUrl),
  };
}

async function challengeOf(flow: Awaited<ReturnType<typeof secondPage>>) {
  const res = await flow.browser.request('POST', flow.optionsUrl!);
  expect(res.status, res.body).toBe(200);
  return webauthnOptionsResponseSchema.parse(JSON.parse(res.body)) as unknown as { challengeId: string; options: { challenge: string } };
}

describe('the passkey at the embedded sign-in', () => {
  it('is offered on the second page by a static script (the page allows no inline script)', async () => {
    const flow = await secondPage();
    expect(flow.page.status).toBe(200);
    expect(flow.page.body).toContain('<script src="/idp/assets/webauthn-login.js" defer></script>');
    expect(flow.page.body).toContain('Use your passkey or security key');
    expect(flow.page.body).not.toMatch(/<script>(?!<)/);
    expect(String(flow.page.headers['content-security-policy'])).toContain("script-src 'self'");
    const script = await flow.browser.get(new URL('/idp/assets/webauthn-login.js', base));
    expect(script.status).toBe(200);
    expect(String(script.headers['content-type'])).toMatch(/^text\/javascript/);
  });

  it('signs in with amr pwd+mfa on a good assertion (audited with the device)', async () => {
    const flow = await secondPage();
    const { challengeId, options } = await challengeOf(flow);
    const res = await flow.browser.post(flow.action!, { challengeId, credential: JSON.stringify(auth.assert(options)) });
    const back = await followToClient(flow.browser, res, client, base);
    expect(back.searchParams.get('state')).toBe(flow.state);
    const tokenRes = await tokenRequest(flow.browser, client, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: base,
      code_verifier: flow.verifier,
    });
    expect(tokenRes.status).toBe(200);
    const idp = m.t.app.idp!;
    const id = await jwtVerify(JSON.parse(tokenRes.body).id_token, createLocalJWKSet(idp.publicJwks), { issuer: idp.issuer });
    expect(id.payload.amr).toEqual(['pwd', 'mfa']);
    expect((await auditEvents(m.db, 'idp.login.second_factor_ok')).at(-1)).toMatchObject({ target_upn: UPN });
  });

  it('refuses a wrong origin, a replayed answer and a challenge of another sign-in, signing nobody in', async () => {
    const flow = await secondPage();
    const first = await challengeOf(flow);
    const wrong = await flow.browser.post(flow.action!, {
      challengeId: first.challengeId,
      credential: JSON.stringify(auth.assert(first.options, { origin: 'https://evil.example' })),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('Your passkey or security key was not accepted.');

    // The same challenge again (used up by the refusal), even with a right answer.
    const replay = await flow.browser.post(flow.action!, {
      challengeId: first.challengeId,
      credential: JSON.stringify(auth.assert(first.options)),
    });
    expect(replay.status).toBe(401);

    // A challenge issued to another sign-in (interaction) of the same user.
    const other = await secondPage();
    const foreign = await challengeOf(other);
    const crossed = await flow.browser.post(flow.action!, {
      challengeId: foreign.challengeId,
      credential: JSON.stringify(auth.assert(foreign.options)),
    });
    expect(crossed.status).toBe(401);

    const malformed = await flow.browser.post(flow.action!, { challengeId: 'x', credential: '{' });
    expect(malformed.status).toBe(400);
    expect((await auditEvents(m.db, 'idp.login.second_factor_failed')).length).toBeGreaterThanOrEqual(3);
  });
});
