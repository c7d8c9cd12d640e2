import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_PASSWORD, type TestApp } from '../../test/app.js';
import type { MfaUserStatus } from '../db/schema.js';
import { totpCode } from '../mfa/common/otp.js';
import type { MfaProvider } from '../mfa/port.js';
import { createAuditService } from '../modules/audit/audit.service.js';
import { hashPassword } from './password.js';
import { SECOND_FACTOR_RATE_LIMIT } from './interaction.routes.js';
import { SECOND_FACTOR_TTL_SECONDS } from './second-factor.js';
import {
  authorizeUrl,
  followToClient,
  formAction,
  verifyFormAction,
  injectTransport,
  isInteractionRedirect,
  location,
  pkce,
  TestBrowser,
  tokenRequest,
  type Client,
  type HttpResponse,
  type TokenResponse,
} from '../../test/oidc-test-client.js';

/**
 * The embedded sign-in with the second factor, through the real pages of the whole app (password
 * page, Passcode page, authorization code, token endpoint), with factors held by the builtin MFA
 * provider. Each test has its own user, so TOTP steps, lockouts and rate limits do not interfere.
 */

let t: TestApp;
let mfa: MfaProvider;
let client: Client;
let base: string;
let loginScope: string;
let userSeq = 0;

beforeAll(async () => {
  t = await buildTestApp();
  mfa = t.app.mfa;
  if (t.config.idp.mode !== 'embedded') throw new Error('embedded mode expected');
  base = t.config.publicUrl;
  client = { issuer: t.config.idp.issuer, clientId: t.config.idp.clientId, redirectUri: base };
  loginScope = `openid profile offline_access user.read ${t.config.idp.scope}`;
});
afterAll(() => t?.close());

/** A new person in the embedded directory and (unless `status: null`) at the builtin MFA provider. */
async function addUser(status: MfaUserStatus | null = 'active', statusReason: string | null = null): Promise<string> {
  const upn = `mfa-user-${++userSeq}-${Date.now()}@example.com`;
  const db = t.database.db;
  await db
    .insertInto('idp_account')
    .values({
      username: upn,
      password_hash: await hashPassword(TEST_PASSWORD),
      email: upn,
      given_name: 'Test',
      family_name: `User ${userSeq}`,
      roles: [],
    })
    .execute();
  if (status)
    await db.insertInto('mfa_user').values({ username: upn, email: upn, real_name: upn, status, status_reason: statusReason }).execute();
  return upn;
}

/**
 * Enrols an authenticator app through the MFA provider, confirmed with the code of two steps ago, so
 * that the previous, current and next steps are all still unused for the sign-ins of the test.
 */
async function enrolTotp(upn: string): Promise<string> {
  const when = new Date(Date.now() - 60_000);
  const e = await mfa.startTotpEnrolment(upn, { allowWhenDevicesExist: true, issuer: 'Test', now: when });
  await mfa.confirmTotpEnrolment(
    upn,
    e.enrolmentId,
    { code: totpCode(e.secret, when), name: 'Phone app' },
    { allowWhenDevicesExist: true, now: when },
  );
  return e.secret;
}

async function bypassCode(upn: string, reuseCount = 1): Promise<string> {
  const created = await mfa.createBypassCodes(upn, { count: 1, validitySeconds: 600, reuseCount, replaceExisting: false, createdBy: upn });
  return created.codes[0]!.code;
}

interface Flow {
  browser: TestBrowser;
  verifier: string;
  state: string;
  /** The interaction page (`/idp/interaction/:uid`). */
  interaction: URL;
  /** The answer to the password. */
  afterPassword: HttpResponse;
}

/** Authorize → password page → password. */
async function password(username: string, pw = TEST_PASSWORD, browser = new TestBrowser(injectTransport(t.app))): Promise<Flow> {
  const { verifier, challenge } = pkce();
  const state = `st-${Math.random().toString(36).slice(2)}`;
  const interaction = location(await browser.get(authorizeUrl(client, { scope: loginScope, challenge, state })), base);
  const page = await browser.get(interaction);
  const action = formAction(page.body);
  if (!action?.endsWith('/login')) throw new Error(`no password form: ${page.status}`);
  const afterPassword = await browser.post(new URL(action, interaction), { username, password: pw });
  return { browser, verifier, state, interaction, afterPassword };
}

/** The Passcode page of a flow whose password was accepted, and its form action. */
async function secondFactorPage(flow: Flow) {
  expect(isInteractionRedirect(flow.afterPassword, base), `${flow.afterPassword.status} ${flow.afterPassword.body.slice(0, 200)}`).toBe(
    true,
  );
  const url = location(flow.afterPassword, base);
  expect(url.pathname).toBe(flow.interaction.pathname);
  const page = await flow.browser.get(url);
  const action = new URL(verifyFormAction(page.body)!, url);
  return { page, action };
}

const submitCode = async (flow: Flow, code: string) => flow.browser.post((await secondFactorPage(flow)).action, { passcode: code });

/** Follows the provider's redirects back to the portal; redeems the code when there is one. */
async function backAtPortal(flow: Flow, res: HttpResponse): Promise<{ back: URL; tokens?: TokenResponse }> {
  const back = await followToClient(flow.browser, res, client, base);
  expect(back.searchParams.get('state')).toBe(flow.state);
  const code = back.searchParams.get('code');
  if (!code) return { back };
  const tokenRes = await tokenRequest(flow.browser, client, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: base,
    code_verifier: flow.verifier,
  });
  expect(tokenRes.status, tokenRes.body).toBe(200);
  return { back, tokens: JSON.parse(tokenRes.body) as TokenResponse };
}

async function verified(tokens: TokenResponse) {
  const idp = t.app.idp!;
  const keys = createLocalJWKSet(idp.publicJwks);
  const audience = t.config.idp.mode === 'embedded' ? t.config.idp.audience : '';
  const id = await jwtVerify(tokens.id_token!, keys, { issuer: idp.issuer, audience: client.clientId });
  const access = await jwtVerify(tokens.access_token, keys, { issuer: idp.issuer, audience });
  return { id: id.payload, access: access.payload };
}

const auditOf = async (upn: string) => (await createAuditService(t.database.db).listForUser(upn, { limit: 100 })).events;
const actions = async (upn: string) =>
  (await auditOf(upn)).map((e) => `${e.action}:${e.outcome}${e.reason ? `:${e.reason}` : ''}`).reverse();

describe('embedded sign-in: second factor', () => {
  it('asks a user with a device for a Passcode after the password, on a page of its own', async () => {
    const upn = await addUser();
    await enrolTotp(upn);
    const flow = await password(upn);
    expect(flow.afterPassword.status).toBe(303);
    const { page, action } = await secondFactorPage(flow);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(action.pathname).toBe(`${flow.interaction.pathname}/verify`);
    expect(page.body).toMatch(/<label for="passcode">Passcode<\/label>/);
    expect(page.body).toMatch(
      /<input id="passcode" name="passcode" type="text" inputmode="numeric" autocomplete="one-time-code"[^>]*required/,
    );
    expect(page.body).toMatch(/<button type="submit">Verify<\/button>/);
    expect(page.body).toContain('Enter the 6-digit code from your authenticator app or hardware token, or a bypass code.');
    expect(page.body).toContain(`Signing in as <strong>${upn}</strong>`);
    expect(page.body).not.toMatch(/name="password"|<script|<style|\sstyle=|\son[a-z]+=/i);
    // Reloading the page shows it again (the state is on the server, not in the form).
    expect((await flow.browser.get(flow.interaction)).body).toMatch(/<label for="passcode">Passcode<\/label>/);
  });

  it('signs in with password + TOTP: amr ["pwd","mfa"] in the ID token, the access token and after a refresh', async () => {
    const upn = await addUser();
    const secret = await enrolTotp(upn);
    const flow = await password(upn);
    const res = await submitCode(flow, totpCode(secret, Date.now()));
    expect(res.status).toBe(303);
    const { tokens } = await backAtPortal(flow, res);
    const { id, access } = await verified(tokens!);
    expect(id).toMatchObject({ upn, amr: ['pwd', 'mfa'] });
    expect(access).toMatchObject({ upn, amr: ['pwd', 'mfa'], aud: 'api://mfa-portal' });

    const refreshed = await tokenRequest(flow.browser, client, { grant_type: 'refresh_token', refresh_token: tokens!.refresh_token! });
    expect(refreshed.status, refreshed.body).toBe(200);
    expect(decodeJwt((JSON.parse(refreshed.body) as TokenResponse).access_token)).toMatchObject({ upn, amr: ['pwd', 'mfa'] });
  });

  it('accepts a code typed with a space (123 456)', async () => {
    const upn = await addUser();
    const secret = await enrolTotp(upn);
    const flow = await password(upn);
    const code = totpCode(secret, Date.now());
    const { tokens } = await backAtPortal(flow, await submitCode(flow, ` ${code.slice(0, 3)} ${code.slice(3)} `));
    expect(decodeJwt(tokens!.access_token).amr).toEqual(['pwd', 'mfa']);
  });

  it('refuses a wrong code with a message and the form again, issues no code, and accepts the right one after', async () => {
    const upn = await addUser();
    const secret = await enrolTotp(upn);
    const flow = await password(upn);
    const right = totpCode(secret, Date.now());
    const wrong = right === '000000' ? '111111' : '000000';
    const refused = await submitCode(flow, wrong);
    expect(refused.status).toBe(401);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.body).toContain('That code was not accepted. Check it and try again.');
    expect(refused.body).toMatch(/<label for="passcode">Passcode<\/label>/);
    expect(refused.body).toMatch(/aria-invalid="true"/);
    expect(refused.body).not.toContain(wrong);

    const res = await submitCode(flow, right);
    const { tokens } = await backAtPortal(flow, res);
    expect(decodeJwt(tokens!.id_token!).amr).toEqual(['pwd', 'mfa']);
  });

  it('says what a code looks like when the input is not one, without counting it as an attempt', async () => {
    const upn = await addUser();
    await enrolTotp(upn);
    const flow = await password(upn);
    for (const input of ['12345', 'abcdef', '1234567', '1'.repeat(40)]) {
      const res = await submitCode(flow, input);
      expect(res.status).toBe(400);
      expect(res.body).toContain('Enter the 6 digits of a passcode, or the 9 digits of a bypass code.');
    }
    expect(await mfa.getAccount(upn)).toMatchObject({ status: 'active' });
    expect(
      (await t.database.db.selectFrom('mfa_user').select('failed_attempts').where('username', '=', upn).executeTakeFirstOrThrow())
        .failed_attempts,
    ).toBe(0);
  });

  it('refuses a TOTP code that was already used, in another sign-in', async () => {
    const upn = await addUser();
    const secret = await enrolTotp(upn);
    const code = totpCode(secret, Date.now());
    const first = await password(upn);
    expect((await backAtPortal(first, await submitCode(first, code))).tokens).toBeDefined();

    const second = await password(upn);
    const replay = await submitCode(second, code);
    expect(replay.status).toBe(401);
    expect(replay.body).toContain('That code was not accepted.');
    expect(await actions(upn)).toContain('idp.login.second_factor_failed:failure:mfa.code_replayed');
  });

  it('accepts a single-use bypass code once (display form with spaces), then no more', async () => {
    const upn = await addUser();
    await enrolTotp(upn);
    const code = await bypassCode(upn);
    expect(code).toMatch(/^\d{3} \d{3} \d{3}$/);

    const first = await password(upn);
    const { tokens } = await backAtPortal(first, await submitCode(first, code));
    expect(decodeJwt(tokens!.access_token)).toMatchObject({ upn, amr: ['pwd', 'mfa'] });

    const second = await password(upn);
    const again = await submitCode(second, code);
    expect(again.status).toBe(401);
    expect(again.body).toContain('That code was not accepted.');
    expect(again.headers.location).toBeUndefined();
  });

  it('lets a user whose devices give no passcode (a push phone) sign in with a bypass code, and says why a passcode fails', async () => {
    const upn = await addUser();
    const user = await t.database.db.selectFrom('mfa_user').select('id').where('username', '=', upn).executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('mfa_device')
      .values({
        user_id: user.id,
        kind: 'phone',
        name: 'Phone',
        capabilities: ['push', 'passcode'],
        phone_number: '+15555550100',
        platform: 'iOS',
      })
      .execute();
    const flow = await password(upn);
    const res = await submitCode(flow, '123456');
    expect(res.status).toBe(401);
    expect(res.body).toContain('None of your devices can give a passcode here yet.');
    const { tokens } = await backAtPortal(flow, await submitCode(flow, await bypassCode(upn)));
    expect(decodeJwt(tokens!.id_token!).amr).toEqual(['pwd', 'mfa']);
  });

  it('finishes with the password alone (amr ["pwd"]) for a user without a device, not provisioned, or in bypass status', async () => {
    const noDevice = await addUser('active');
    const notProvisioned = await addUser(null);
    const bypassStatus = await addUser('bypass');
    for (const upn of [noDevice, notProvisioned, bypassStatus, 'alice@example.com', 'nomfa@example.com']) {
      const flow = await password(upn);
      expect(isInteractionRedirect(flow.afterPassword, base), upn).toBe(false);
      const { tokens } = await backAtPortal(flow, flow.afterPassword);
      const { id, access } = await verified(tokens!);
      expect(id.amr, upn).toEqual(['pwd']);
      expect(access.amr, upn).toEqual(['pwd']);
    }
  });

  it('asks the demo staff with devices for the second factor (bob answers with his Duo D100 token)', async () => {
    const flow = await password('bob@example.com');
    const { page } = await secondFactorPage(flow);
    expect(page.body).toContain('Signing in as <strong>bob@example.com</strong>');
  });
});

describe('embedded sign-in: refusals', () => {
  it('refuses a disabled user after the password with access_denied and the code and reason, without a code', async () => {
    const flow = await password('disabled@example.com');
    const { back, tokens } = await backAtPortal(flow, flow.afterPassword);
    expect(tokens).toBeUndefined();
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe('mfa.user_disabled: Disabled by the security team');
    expect(await actions('disabled@example.com')).toEqual(
      expect.arrayContaining(['idp.login.password_ok:success', 'idp.login.refused:failure:mfa.user_disabled']),
    );
  });

  it('gives a disabled user with a wrong password only the usual "incorrect" answer', async () => {
    const flow = await password('disabled@example.com', 'not-the-password');
    expect(flow.afterPassword.status).toBe(401);
    expect(flow.afterPassword.body).toContain('Incorrect username or password.');
    expect(flow.afterPassword.body).not.toContain('security team');
  });

  it('refuses a locked-out user with mfa.user_locked_out and the reason', async () => {
    const upn = await addUser('locked_out', 'Lost phone reported');
    const flow = await password(upn);
    const { back } = await backAtPortal(flow, flow.afterPassword);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      error: 'access_denied',
      error_description: 'mfa.user_locked_out: Lost phone reported',
    });
  });

  it('locks the user out after repeated wrong codes, refuses at once, and refuses the next sign-in after the password', async () => {
    const upn = await addUser();
    const secret = await enrolTotp(upn);
    const flow = await password(upn);
    const right = totpCode(secret, Date.now());
    const wrong = right === '999999' ? '888888' : '999999';
    const max = t.config.mfa.lockout.maxFailures;
    for (let i = 1; i < max; i++) expect((await submitCode(flow, wrong)).status).toBe(401);
    const locking = await submitCode(flow, wrong);
    expect(locking.status).toBe(303);
    const { back, tokens } = await backAtPortal(flow, locking);
    expect(tokens).toBeUndefined();
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe('mfa.user_locked_out: Too many failed verification attempts');

    const next = await password(upn);
    const { back: refusedAgain } = await backAtPortal(next, next.afterPassword);
    expect(refusedAgain.searchParams.get('error_description')).toMatch(/^mfa\.user_locked_out/);
    expect(await actions(upn)).toEqual(
      expect.arrayContaining(['mfa.lockout:success:too_many_failed_attempts', 'idp.login.refused:failure:mfa.user_locked_out']),
    );
  });

  it('refuses when the user is disabled between the password and the code, even with the right code', async () => {
    const upn = await addUser();
    const secret = await enrolTotp(upn);
    const flow = await password(upn);
    await secondFactorPage(flow);
    await t.database.db
      .updateTable('mfa_user')
      .set({ status: 'disabled', status_reason: 'Left the organisation' })
      .where('username', '=', upn)
      .execute();
    const res = await submitCode(flow, totpCode(secret, Date.now()));
    const { back, tokens } = await backAtPortal(flow, res);
    expect(tokens).toBeUndefined();
    expect(back.searchParams.get('error_description')).toBe('mfa.user_disabled: Left the organisation');
  });

  it('rate-limits second-factor submissions of one sign-in', async () => {
    const upn = await addUser();
    await enrolTotp(upn);
    const flow = await password(upn);
    const { action } = await secondFactorPage(flow);
    const statuses: number[] = [];
    for (let i = 0; i <= SECOND_FACTOR_RATE_LIMIT.perInteraction.max; i++)
      statuses.push((await flow.browser.post(action, { passcode: 'nope' })).status);
    expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);
    const limited = await flow.browser.post(action, { passcode: '123456' });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.body).toContain('Too many attempts.');
    expect(limited.body).toMatch(/<label for="passcode">Passcode<\/label>/);
  });
});

describe('embedded sign-in: the two steps are bound together', () => {
  it('gives no code when the authorization is resumed after the password only (skipping the Passcode page)', async () => {
    const upn = await addUser();
    await enrolTotp(upn);
    const flow = await password(upn);
    await secondFactorPage(flow);
    const uid = flow.interaction.pathname.split('/').pop()!;
    // What the provider would resume once the interaction is finished: try it without finishing it.
    const resumed = await flow.browser.get(`${client.issuer}/auth/${uid}`);
    const next = location(resumed, base);
    expect(next.searchParams.get('code')).toBeNull();
    expect(next.pathname).toMatch(/^\/idp\/interaction\/[A-Za-z0-9_-]+$/);
    expect(next.pathname).not.toBe(flow.interaction.pathname);
    // A new sign-in starts: the password page, not the Passcode page.
    const page = await flow.browser.get(next);
    expect(page.body).toMatch(/<label for="password">Password<\/label>/);
    expect(page.body).not.toMatch(/name="passcode"/);
  });

  it('asks for the password again when a code is posted to a sign-in that has not passed the password step', async () => {
    const upn = await addUser();
    const secret = await enrolTotp(upn);
    const browser = new TestBrowser(injectTransport(t.app));
    const { challenge } = pkce();
    const interaction = location(await browser.get(authorizeUrl(client, { scope: loginScope, challenge })), base);
    await browser.get(interaction);
    const res = await browser.post(new URL(`${interaction.pathname}/verify`, base), { passcode: totpCode(secret, Date.now()) });
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('Enter your password again.');
    expect(res.body).toMatch(/<label for="password">Password<\/label>/);
  });

  it('refuses a code posted from another browser (no interaction cookie) to a sign-in that passed the password', async () => {
    const upn = await addUser();
    const secret = await enrolTotp(upn);
    const flow = await password(upn);
    const { action } = await secondFactorPage(flow);
    const res = await new TestBrowser(injectTransport(t.app)).post(action, { passcode: totpCode(secret, Date.now()) });
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('This sign-in page has expired');
  });

  it('binds the second step to the account that gave the password, not to anything in the form', async () => {
    const victim = await addUser();
    const victimSecret = await enrolTotp(victim);
    const attacker = await addUser();
    await enrolTotp(attacker);
    // The attacker passes their own password, then submits the victim's code and a username field.
    const flow = await password(attacker);
    const { action } = await secondFactorPage(flow);
    const res = await flow.browser.post(action, { passcode: totpCode(victimSecret, Date.now()), username: victim, accountId: 'x' });
    expect(res.status).toBe(401);
    expect(res.headers.location).toBeUndefined();
  });
});

describe('embedded sign-in: late and repeated answers', () => {
  it('asks for the password again when the code comes more than the allowed time after it', async () => {
    const upn = await addUser();
    const secret = await enrolTotp(upn);
    const flow = await password(upn);
    const { action } = await secondFactorPage(flow);
    // Age the password step stored in the interaction record, as if the user had walked away.
    const uid = flow.interaction.pathname.split('/').pop()!;
    const db = t.database.db;
    const row = await db
      .selectFrom('oidc_payload')
      .select('payload')
      .where('model', '=', 'Interaction')
      .where('id', '=', uid)
      .executeTakeFirstOrThrow();
    const payload = row.payload as { result: { secondFactor: { passwordAt: number } } };
    payload.result.secondFactor.passwordAt -= SECOND_FACTOR_TTL_SECONDS + 1;
    await db
      .updateTable('oidc_payload')
      .set({ payload: JSON.stringify(payload) })
      .where('model', '=', 'Interaction')
      .where('id', '=', uid)
      .execute();

    const page = await flow.browser.get(flow.interaction);
    expect(page.body).toContain('Your sign-in took too long. Enter your password again.');
    expect(page.body).toMatch(/<label for="password">Password<\/label>/);
    const late = await flow.browser.post(action, { passcode: totpCode(secret, Date.now()) });
    expect(late.status).toBe(400);
    expect(late.headers.location).toBeUndefined();
    expect(late.body).toMatch(/<label for="password">Password<\/label>/);
  });

  it('carries on when the same right code is submitted twice (double click)', async () => {
    const upn = await addUser();
    const secret = await enrolTotp(upn);
    const flow = await password(upn);
    const { action } = await secondFactorPage(flow);
    const code = totpCode(secret, Date.now());
    const first = await flow.browser.post(action, { passcode: code });
    const second = await flow.browser.post(action, { passcode: code });
    expect(first.status).toBe(303);
    expect(second.status).toBe(303);
    expect(second.headers.location).toBe(first.headers.location);
    const { tokens } = await backAtPortal(flow, second);
    expect(decodeJwt(tokens!.id_token!).amr).toEqual(['pwd', 'mfa']);
  });
});

describe('embedded sign-in: audit', () => {
  it('records each step of a sign-in, never the password or the code', async () => {
    const upn = await addUser();
    const secret = await enrolTotp(upn);
    const flow0 = await password(upn, 'wrong-password-123');
    expect(flow0.afterPassword.status).toBe(401);
    const flow = await password(upn);
    const wrongCode = '000001';
    await submitCode(flow, wrongCode);
    const code = totpCode(secret, Date.now());
    await backAtPortal(flow, await submitCode(flow, code));

    expect(await actions(upn)).toEqual([
      'idp.login.password_failed:failure:invalid_credentials',
      'idp.login.password_ok:success',
      'mfa.verify:failure:mfa.code_invalid',
      'idp.login.second_factor_failed:failure:mfa.code_invalid',
      'mfa.verify:success',
      'idp.login.second_factor_ok:success',
    ]);
    const events = await auditOf(upn);
    const ok = events.find((e) => e.action === 'idp.login.second_factor_ok')!;
    expect(ok).toMatchObject({ actorUpn: upn, target: upn, details: { method: 'totp', amr: ['pwd', 'mfa'] } });
    expect(ok.requestId).toBeTruthy();
    const text = JSON.stringify(events);
    for (const secretText of [TEST_PASSWORD, 'wrong-password-123', wrongCode, code, secret]) expect(text).not.toContain(secretText);
  });
});
