import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_IDENTITY_CHECK_FRESH_SECONDS, adminUserDetailSchema, adminVerificationStateSchema, ROLE_HELPDESK } from '@mfa-portal/shared';
import { advance, auditEvents, demoTokenCodes, errorOf, meTestApp, type MeTestApp } from '../../../../test/me-api.js';
import { addPhoneRecord, ADMIN, adminSnapshot, callAs, deviceIdOf, HELPDESK, JUSTIFY, verifyByHand } from '../../../../test/admin-api.js';

/**
 * "Verify, then issue" (issue 14): a Helpdesk Administrator must have recorded a verification of the
 * user (a right passcode, an approved push, or a check made by hand with a ticket) within
 * HELPDESK_VERIFICATION_WINDOW_SECONDS before each issuing action; a Solution Administrator may act
 * without one, audited as skipped.
 */

let m: MeTestApp;
const BOB = 'bob@example.com';
const COLLEAGUE = { upn: 'helpdesk2@example.com', roles: [ROLE_HELPDESK] };
const WINDOW = ADMIN_IDENTITY_CHECK_FRESH_SECONDS;

beforeAll(async () => {
  m = await meTestApp({ MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '10000' });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date());
});
afterAll(async () => {
  vi.useRealTimers();
  await m?.close();
});

interface Guarded {
  name: string;
  /** The audit action of the change (its refusal is audited under it too). */
  action: string;
  /** A fresh, valid attempt by `who` on bob. */
  attempt(who: { upn: string; roles: string[] }): Promise<LightMyRequestResponse>;
  ok: number;
}

const GUARDED: Guarded[] = [
  {
    name: 'POST /api/admin/users/:upn/bypass-codes',
    action: 'admin.user.create_bypass_codes',
    attempt: (who) => callAs(m, who, 'POST', `/api/admin/users/${BOB}/bypass-codes`, { count: 1, validitySeconds: 3600, ...JUSTIFY }),
    ok: 201,
  },
  {
    name: 'DELETE /api/admin/users/:upn/devices/:id',
    action: 'admin.user.delete_device',
    attempt: async (who) => callAs(m, who, 'DELETE', `/api/admin/users/${BOB}/devices/${await addPhoneRecord(m.db, BOB)}`, JUSTIFY),
    ok: 200,
  },
  {
    name: 'POST /api/admin/users/:upn/devices/:id/resync',
    action: 'admin.user.resync_token',
    attempt: async (who) =>
      callAs(m, who, 'POST', `/api/admin/users/${BOB}/devices/${await deviceIdOf(m.db, BOB, 'hardware_token')}/resync`, {
        codes: await demoTokenCodes(m.db, 'D100-0001', 3, 20),
        ...JUSTIFY,
      }),
    ok: 200,
  },
  {
    name: 'POST /api/admin/users/:upn/lost-device',
    action: 'admin.user.lost_device.remove_device',
    attempt: async (who) =>
      callAs(m, who, 'POST', `/api/admin/users/${BOB}/lost-device`, { deviceId: await addPhoneRecord(m.db, BOB), ...JUSTIFY }),
    ok: 201,
  },
  {
    name: 'POST /api/admin/users/:upn/enrolment-passes',
    action: 'admin.user.issue_enrolment_pass',
    attempt: (who) => callAs(m, who, 'POST', `/api/admin/users/${BOB}/enrolment-passes`, JUSTIFY),
    ok: 201,
  },
];

const lastEvent = async (action: string) => (await auditEvents(m.db, action)).at(-1);

async function refused(res: Promise<LightMyRequestResponse>, action: string, who = HELPDESK) {
  const before = await adminSnapshot(m.db);
  const r = await res;
  expect(r.statusCode, r.body).toBe(403);
  expect(errorOf(r)).toMatchObject({ code: 'admin.verification_required', details: { windowSeconds: WINDOW } });
  // Changed nothing (a phone record added by the attempt itself aside).
  const after = JSON.parse(await adminSnapshot(m.db)) as { codes: unknown[]; enrolments: unknown[] };
  expect(after.codes).toEqual((JSON.parse(before) as { codes: unknown[] }).codes);
  expect(await lastEvent(action)).toMatchObject({
    actor_upn: who.upn,
    outcome: 'failure',
    reason: 'admin.verification_required',
    details: { verification: 'missing' },
  });
}

describe.each(GUARDED)('$name', (g) => {
  it('is refused to a Helpdesk Administrator without a recent verification of the user, changing nothing', async () => {
    advance(WINDOW + 1); // every earlier verification has expired
    const before = await adminSnapshot(m.db);
    await refused(g.attempt(HELPDESK), g.action);
    if (g.action !== 'admin.user.delete_device' && g.action !== 'admin.user.lost_device.remove_device') {
      expect(await adminSnapshot(m.db)).toBe(before);
    }
  });

  it("does not count another helpdesk member's verification", async () => {
    advance(WINDOW + 1);
    await verifyByHand(m, COLLEAGUE, BOB);
    await refused(g.attempt(HELPDESK), g.action);
  });

  it('is allowed within the window, and the audit event names the verification (method, ticket)', async () => {
    advance(WINDOW + 1);
    await verifyByHand(m, HELPDESK, BOB, 'INC-777');
    advance(WINDOW - 5);
    const res = await g.attempt(HELPDESK);
    expect(res.statusCode, res.body).toBe(g.ok);
    const event = await lastEvent(g.action);
    expect(event).toMatchObject({ actor_upn: HELPDESK.upn, outcome: 'success' });
    expect(event!.details).toMatchObject({ verification: { method: 'photo_id_video_call', ticket: 'INC-777' } });
  });

  it('is refused again once the window has passed', async () => {
    advance(WINDOW + 1);
    await verifyByHand(m, HELPDESK, BOB);
    advance(WINDOW + 1);
    await refused(g.attempt(HELPDESK), g.action);
  });

  it('is allowed to a Solution Administrator without one, audited as skipped', async () => {
    advance(WINDOW + 1);
    const res = await g.attempt(ADMIN);
    expect(res.statusCode, res.body).toBe(g.ok);
    const event = await lastEvent(g.action);
    expect(event).toMatchObject({ actor_upn: ADMIN.upn, outcome: 'success', details: { role: 'solution_admin', verification: 'skipped' } });
  });
});

describe('recording a verification', () => {
  it('counts a right passcode (with its ticket), not a wrong one', async () => {
    advance(WINDOW + 1);
    const tokenId = await deviceIdOf(m.db, BOB, 'hardware_token');
    const url = `/api/admin/users/${BOB}/verify-identity`;
    const wrong = await callAs(m, HELPDESK, 'POST', url, { deviceId: tokenId, code: '000000', ticket: 'INC-5' });
    expect(wrong.json()).toMatchObject({ verified: false });
    await refused(GUARDED[0]!.attempt(HELPDESK), GUARDED[0]!.action);
    const [code] = await demoTokenCodes(m.db, 'D100-0001', 1);
    expect((await callAs(m, HELPDESK, 'POST', url, { deviceId: tokenId, code, ticket: 'INC-5' })).json()).toMatchObject({ verified: true });
    const res = await GUARDED[0]!.attempt(HELPDESK);
    expect(res.statusCode, res.body).toBe(201);
    expect((await lastEvent('admin.user.create_bypass_codes'))!.details).toMatchObject({
      verification: { method: 'passcode', ticket: 'INC-5' },
    });
  });

  it('records a check made by hand: method from the list, ticket required, audited; shown on the user page until it expires', async () => {
    advance(WINDOW + 1);
    const url = `/api/admin/users/${BOB}/verify-identity/manual`;
    const page = async (who = HELPDESK) =>
      adminUserDetailSchema.parse((await callAs(m, who, 'GET', `/api/admin/users/${BOB}`)).json()).verification;
    expect(await page()).toEqual({ required: true, windowSeconds: WINDOW, current: null });
    expect(await page(ADMIN)).toMatchObject({ required: false, current: null });

    const before = await adminSnapshot(m.db);
    const noTicket = await callAs(m, HELPDESK, 'POST', url, { method: 'in_person' });
    expect(noTicket.statusCode).toBe(400);
    expect(errorOf(noTicket).details?.field).toBe('ticket');
    const badMethod = await callAs(m, HELPDESK, 'POST', url, { method: 'they_sounded_right', ticket: 'INC-1' });
    expect(errorOf(badMethod).details?.field).toBe('method');
    expect(await adminSnapshot(m.db)).toBe(before);

    const res = await callAs(m, HELPDESK, 'POST', url, { method: 'manager_confirmation', ticket: 'INC-88', note: 'Manager Dana on Teams' });
    expect(res.statusCode, res.body).toBe(201);
    const state = adminVerificationStateSchema.parse(res.json());
    expect(state.current).toMatchObject({ method: 'manager_confirmation', ticket: 'INC-88' });
    expect(Date.parse(state.current!.expiresAt) - Date.parse(state.current!.verifiedAt)).toBe(WINDOW * 1000);
    expect(await lastEvent('admin.user.verify_identity')).toMatchObject({
      actor_upn: HELPDESK.upn,
      target_upn: BOB,
      outcome: 'success',
      details: { method: 'manager_confirmation', ticket: 'INC-88', note: 'Manager Dana on Teams', verified: true },
    });
    expect(await page()).toEqual(state);
    // Theirs alone: a colleague's page shows none.
    expect((await page(COLLEAGUE)).current).toBeNull();
    advance(WINDOW + 1);
    expect((await page()).current).toBeNull();
  });

  it('is refused on an unknown user (404) and to staff (403)', async () => {
    const body = { method: 'in_person', ticket: 'INC-1' };
    expect((await callAs(m, HELPDESK, 'POST', '/api/admin/users/nobody@example.com/verify-identity/manual', body)).statusCode).toBe(403);
    const staff = await callAs(m, { upn: 'alice@example.com', roles: [] }, 'POST', `/api/admin/users/${BOB}/verify-identity/manual`, body);
    expect(errorOf(staff).code).toBe('auth.forbidden');
    const unknown = await callAs(m, ADMIN, 'POST', '/api/admin/users/nobody@example.com/verify-identity/manual', body);
    expect(unknown.statusCode).toBe(404);
  });
});
