import { afterEach, describe, expect, it } from 'vitest';
import { ROLE_HELPDESK } from '@mfa-portal/shared';
import { ADMIN, callAs, HELPDESK } from '../../../test/admin-api.js';
import { meTestApp, totpAt, type MeTestApp } from '../../../test/me-api.js';

/** First-device policy and enrolment passes (issue 15), from outside. ivan@example.com starts without a device. */

let m: MeTestApp | undefined;
afterEach(async () => {
  await m?.close();
  m = undefined;
});

const IVAN = 'ivan@example.com';
const issue = async (
  app: MeTestApp,
  body: Record<string, unknown> = { reason: 'New phone, verified by video call' },
  who = HELPDESK,
  upn = IVAN,
) => {
  // Verify, then issue (issue 14): the issuer has verified the user first (refused where the pass is too).
  await callAs(app, who, 'POST', `/api/admin/users/${upn}/verify-identity/manual`, { method: 'in_person', ticket: 'INC-1' });
  return callAs(app, who, 'POST', `/api/admin/users/${upn}/enrolment-passes`, body);
};
const enrol = (app: MeTestApp) => app.call(IVAN, 'POST', '/devices/authenticator', {});
const redeem = (app: MeTestApp, pass: string) => app.call(IVAN, 'POST', '/enrolment-pass', { pass });

describe('first-device policy "open" (the demo default)', () => {
  it('lets a user without devices enrol with the password alone', async () => {
    m = await meTestApp();
    expect((await m.call(IVAN, 'GET', '/enrolment-policy')).json()).toMatchObject({ policy: 'open', passRequired: false });
    expect((await enrol(m)).statusCode).toBe(201);
  });
});

describe('a protected account’s first device', () => {
  /** ivan, made a helpdesk member before he has any device (his account is protected from now on). */
  const asNewDesk = async (app: MeTestApp, method: 'GET' | 'POST' | 'PATCH', path: string, payload?: unknown, sid?: string) =>
    app.t.app.inject({
      method,
      url: `/api/me${path}`,
      headers: {
        authorization: `Bearer ${await app.token(IVAN, [ROLE_HELPDESK], sid ? { sid } : {})}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });

  it('needs a pass whatever the policy; the pass opens it in that session only, and only until the first device', async () => {
    m = await meTestApp();
    expect((await asNewDesk(m, 'GET', '/enrolment-policy')).json()).toMatchObject({ policy: 'open', passRequired: true });
    const refused = await asNewDesk(m, 'POST', '/devices/authenticator', {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('auth.protected_account');

    const issued = await issue(m, { reason: 'First device of a new helpdesk member', uses: 1, lifetimeMinutes: 60 }, ADMIN);
    expect(issued.statusCode, issued.body).toBe(201);
    expect((await asNewDesk(m, 'POST', '/enrolment-pass', { pass: issued.json().pass })).statusCode).toBe(200);
    expect((await asNewDesk(m, 'GET', '/enrolment-policy')).json()).toMatchObject({ passRequired: false });
    // Another sign-in session of his inherits nothing.
    const elsewhere = await asNewDesk(m, 'POST', '/devices/authenticator', {}, 'ivan-elsewhere');
    expect(elsewhere.json().code).toBe('auth.protected_account');
    expect((await asNewDesk(m, 'GET', '/enrolment-policy', undefined, 'ivan-elsewhere')).json()).toMatchObject({ passRequired: true });

    const started = await asNewDesk(m, 'POST', '/devices/authenticator', {});
    expect(started.statusCode, started.body).toBe(201);
    const { enrolmentId, secret } = started.json();
    const confirmed = await asNewDesk(m, 'POST', `/devices/authenticator/${enrolmentId}/confirm`, {
      code: totpAt(secret),
      name: 'Desk phone',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    // From the first device on, his account's changes are a Solution Administrator's again.
    const second = await asNewDesk(m, 'POST', '/devices/authenticator', {});
    expect(second.statusCode).toBe(403);
    expect(second.json().code).toBe('auth.protected_account');
    const renamed = await asNewDesk(m, 'PATCH', `/devices/${confirmed.json().id}`, { name: 'Renamed' });
    expect(renamed.json().code).toBe('auth.protected_account');
  });
});

describe('first-device policy "pass"', () => {
  it('refuses a passkey or security key as the first device without a pass too (issue 18)', async () => {
    m = await meTestApp({ FIRST_DEVICE_POLICY: 'pass' });
    const refused = await m.call(IVAN, 'POST', '/webauthn/registration');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('enrolment.pass_required');
  });

  it('refuses a first enrolment without a pass, then allows it after redeeming one that helpdesk issued (shown once, stored hashed, audited)', async () => {
    m = await meTestApp({ FIRST_DEVICE_POLICY: 'pass' });
    expect((await m.call(IVAN, 'GET', '/enrolment-policy')).json()).toMatchObject({
      policy: 'pass',
      passRequired: true,
      passGrantedUntil: null,
    });
    const refused = await enrol(m);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('enrolment.pass_required');

    const issued = await issue(m, { reason: 'New phone, verified by video call', ticket: 'INC-42', uses: 1, lifetimeMinutes: 60 });
    expect(issued.statusCode, issued.body).toBe(201);
    const { pass, info } = issued.json();
    expect(pass).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(info).toMatchObject({ maxUses: 1, usesLeft: 1, createdBy: HELPDESK.upn, revokedAt: null });
    const stored = await m.db.selectFrom('enrolment_pass').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(pass.replaceAll('-', ''));
    expect(JSON.stringify((await callAs(m, HELPDESK, 'GET', `/api/admin/users/${IVAN}/enrolment-passes`)).json())).not.toContain(pass);

    expect((await redeem(m, 'AAAA-BBBB-CCCC-DDDD')).json().code).toBe('enrolment_pass.invalid');
    const ok = await redeem(m, pass.toLowerCase().replaceAll('-', ' '));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ passRequired: false, passGrantedUntil: expect.any(String) });
    expect((await enrol(m)).statusCode).toBe(201);
    // Single use: it cannot be redeemed again.
    expect((await redeem(m, pass)).statusCode).toBe(400);
    const audit = await m.db
      .selectFrom('audit_event')
      .select(['action', 'outcome'])
      .where('action', 'in', ['admin.user.issue_enrolment_pass', 'enrolment_pass.redeem'])
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'admin.user.issue_enrolment_pass', outcome: 'success' },
      { action: 'enrolment_pass.redeem', outcome: 'failure' },
      { action: 'enrolment_pass.redeem', outcome: 'success' },
      { action: 'enrolment_pass.redeem', outcome: 'failure' },
    ]);
    expect(JSON.stringify(await m.db.selectFrom('audit_event').select('details').execute())).not.toContain(pass);
  });

  it('a revoked pass cannot be redeemed, and revoking also ends a redeemed pass’s grant', async () => {
    m = await meTestApp({ FIRST_DEVICE_POLICY: 'pass' });
    const a = (await issue(m, { reason: 'Multi-use pass for the workshop', uses: 3 })).json();
    expect((await redeem(m, a.pass)).statusCode).toBe(200);
    const revoked = await callAs(m, HELPDESK, 'DELETE', `/api/admin/users/${IVAN}/enrolment-passes/${a.info.id}`);
    expect(revoked.json()).toMatchObject({ usesLeft: 2, revokedAt: expect.any(String) });
    expect((await enrol(m)).json().code).toBe('enrolment.pass_required');
    expect((await redeem(m, a.pass)).json().code).toBe('enrolment_pass.invalid');
    expect((await callAs(m, HELPDESK, 'DELETE', `/api/admin/users/${IVAN}/enrolment-passes/${a.info.id}`)).statusCode).toBe(404);
  });

  it('refuses a lifetime over 8 hours, zero or too many uses, a missing reason; helpdesk never for a protected account', async () => {
    m = await meTestApp({ FIRST_DEVICE_POLICY: 'pass' });
    for (const body of [
      { reason: 'Too long a pass', lifetimeMinutes: 481 },
      { reason: 'No uses at all', uses: 0 },
      { reason: 'Far too many uses', uses: 11 },
      { lifetimeMinutes: 60 },
    ]) {
      const res = await issue(m, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('request.invalid');
    }
    expect(await m.db.selectFrom('enrolment_pass').select('id').execute()).toEqual([]);
    expect((await issue(m, { reason: 'For the administrator' }, HELPDESK, 'admin@example.com')).statusCode).toBe(403);
    expect((await issue(m, { reason: 'For a colleague' }, ADMIN, 'helpdesk@example.com')).statusCode).toBe(201);
    expect((await issue(m, { reason: 'For myself' }, ADMIN, 'admin@example.com')).statusCode).toBe(403);
  });

  it('limits guessing: after 5 wrong passes the user must wait (429)', async () => {
    m = await meTestApp({ FIRST_DEVICE_POLICY: 'pass' });
    for (let i = 0; i < 5; i++) expect((await redeem(m, `WRNG-PASS-0000-000${i}`)).statusCode).toBe(400);
    const limited = await redeem(m, 'WRNG-PASS-0000-0009');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('first-device policy "window"', () => {
  it('counts the window from provisioning, not from the first time the name was seen, and asks for a pass after it', async () => {
    const app = await meTestApp({ FIRST_DEVICE_POLICY: 'window', FIRST_DEVICE_WINDOW_DAYS: '7' });
    m = app;
    const provision = (daysAgo: number | null, seenDaysAgo = 30) =>
      app.db
        .updateTable('directory_user')
        .set({
          created_at: new Date(Date.now() - seenDaysAgo * 86_400_000),
          provisioned_at: daysAgo === null ? null : new Date(Date.now() - daysAgo * 86_400_000),
        })
        .where('upn', '=', IVAN)
        .execute();
    // Seeded and never provisioned by SCIM or a first sign-in: no window at all.
    await provision(null);
    expect((await m.call(IVAN, 'GET', '/enrolment-policy')).json()).toMatchObject({ passRequired: true, windowEndsAt: null });
    // Seen a month ago, provisioned yesterday: within the window.
    await provision(1);
    expect((await m.call(IVAN, 'GET', '/enrolment-policy')).json()).toMatchObject({
      policy: 'window',
      passRequired: false,
      windowEndsAt: expect.any(String),
    });
    // Provisioned eight days ago: the window is over.
    await provision(8);
    expect((await m.call(IVAN, 'GET', '/enrolment-policy')).json()).toMatchObject({ passRequired: true });
    expect((await enrol(m)).json().code).toBe('enrolment.pass_required');
  });
});
