import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, auditEvents, errorOf, meTestApp, nextSecond, type MeTestApp } from '../../../test/me-api.js';
import { callAs, HELPDESK, JUSTIFY } from '../../../test/admin-api.js';

/** Sign-out revokes (issue 14): a token issued before its user's sessions were revoked is refused at once. */

let m: MeTestApp;
beforeAll(async () => {
  m = await meTestApp();
});
afterAll(() => m.close());

const getDevices = (token: string) =>
  m.t.app.inject({ method: 'GET', url: '/api/me/devices', headers: { authorization: `Bearer ${token}` } });
const getUserInfo = (token: string, upn: string) =>
  m.t.app.inject({
    method: 'GET',
    url: `/account/getuserinfo?userid=${upn}&email=${upn}&firstname=A&lastname=B`,
    headers: { authorization: `Bearer ${token}` },
  });

function expectRevoked(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(401);
  expect(errorOf(res)).toMatchObject({ code: 'auth.token_expired' });
}

describe('POST /api/me/sign-out', () => {
  it('refuses a token copied before sign-out right after, on the API and getuserinfo; audited; a new sign-in works', async () => {
    const upn = 'signout-1@example.com';
    await addUser(m.db, upn);
    const copied = await m.token(upn);
    expect((await getDevices(copied)).statusCode).toBe(200);
    const out = await m.t.app.inject({ method: 'POST', url: '/api/me/sign-out', headers: { authorization: `Bearer ${copied}` } });
    expect(out.statusCode, out.body).toBe(204);
    expectRevoked(await getDevices(copied));
    expectRevoked(await getUserInfo(copied, upn));
    expect((await auditEvents(m.db, 'session.sign_out')).filter((e) => e.target_upn === upn)).toMatchObject([{ outcome: 'success' }]);
    // Another user's tokens are untouched; the user's next sign-in is accepted.
    expect((await getDevices(await m.token('alice@example.com'))).statusCode).toBe(200);
    await nextSecond();
    expect((await getDevices(await m.token(upn))).statusCode).toBe(200);
  });

  it('needs a bearer token (401 with the error shape)', async () => {
    const res = await m.t.app.inject({ method: 'POST', url: '/api/me/sign-out' });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('auth.token_missing');
  });
});

describe('POST /api/admin/users/:upn/sign-out-everywhere', () => {
  it("helpdesk signs a user out everywhere (lost device): the user's tokens are refused; audited with the reason", async () => {
    const upn = 'dave@example.com';
    const onLostPhone = await m.token(upn);
    const res = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${upn}/sign-out-everywhere`, JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ signedOutAt: expect.any(String) });
    expectRevoked(await getDevices(onLostPhone));
    const events = (await auditEvents(m.db, 'admin.user.sign_out_everywhere')).filter((e) => e.target_upn === upn);
    expect(events).toMatchObject([
      { outcome: 'success', actor_upn: HELPDESK.upn, details: { reason: JUSTIFY.reason, ticket: JUSTIFY.ticket } },
    ]);
  });

  it('refuses a user without a staff role (403) and a missing reason (400), revoking nothing', async () => {
    const upn = 'erin@example.com';
    const token = await m.token(upn);
    const denied = await callAs(m, { upn: 'bob@example.com', roles: [] }, 'POST', `/api/admin/users/${upn}/sign-out-everywhere`, JUSTIFY);
    expect(denied.statusCode).toBe(403);
    const bad = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${upn}/sign-out-everywhere`, {});
    expect(bad.statusCode).toBe(400);
    expect((await getDevices(token)).statusCode).toBe(200);
  });
});

describe('disabling an account revokes its sessions', () => {
  it('refuses the tokens of an account disabled in the admin screens', async () => {
    const upn = 'grace@example.com';
    const token = await m.token(upn);
    const res = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${upn}/disable`, JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    expectRevoked(await getDevices(token));
    // The profile call still tells that token the account is disabled (the shell shows why, not "sign in again").
    const earlier = await getUserInfo(token, upn);
    expect(earlier.statusCode).toBe(200);
    expect(earlier.json().mfa).toMatchObject({ status: 'disabled' });
    // A later sign-in sees the account disabled (as before).
    await nextSecond();
    const info = await getUserInfo(await m.token(upn), upn);
    expect(info.statusCode).toBe(200);
    expect(info.json().mfa).toMatchObject({ status: 'disabled' });
  });
});
