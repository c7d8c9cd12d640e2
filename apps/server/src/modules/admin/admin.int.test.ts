import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuditResponseSchema,
  adminLostDeviceProgressSchema,
  adminTokenImportResponseSchema,
  adminTokensResponseSchema,
  adminUserDetailSchema,
  adminUsersResponseSchema,
  createBypassCodesResponseSchema,
} from '@mfa-portal/shared';
import { hotpCode } from '../../mfa/common/otp.js';
import { auditEvents, demoTokenCodes, errorOf, meTestApp, type MeTestApp, totpAt } from '../../../test/me-api.js';
import { ADMIN, adminSnapshot, BOB, callAs, deviceIdOf, HELPDESK, JUSTIFY, type Method, verifyByHand } from '../../../test/admin-api.js';

/** /api/admin/...: each route with good input, bad input (400 with the field, nothing changed) and other users' ids (404). */

let m: MeTestApp;

async function refusedWithoutChange(
  who: { upn: string; roles: string[] },
  method: Method,
  url: string,
  payload: unknown,
  status: number,
  code: string,
  field?: string,
) {
  const before = await adminSnapshot(m.db);
  const res = await callAs(m, who, method, url, payload);
  expect(res.statusCode, res.body).toBe(status);
  expect(errorOf(res).code).toBe(code);
  if (field !== undefined) expect(errorOf(res).details?.field).toBe(field);
  expect(await adminSnapshot(m.db)).toBe(before);
}

beforeAll(async () => {
  m = await meTestApp({ MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '10000' });
  // Verify, then issue (issue 14; see users/verify-then-issue.int.test.ts): the helpdesk has verified bob.
  await verifyByHand(m, HELPDESK, BOB.upn);
});
afterAll(async () => m?.close());

describe('GET /api/admin/users', () => {
  it('finds users by part of their name, upn or email, with their protection', async () => {
    const res = await callAs(m, HELPDESK, 'GET', '/api/admin/users?q=BROWN');
    expect(res.statusCode).toBe(200);
    const { users } = adminUsersResponseSchema.parse(res.json());
    expect(users.map((u) => u.upn)).toEqual(['bob@example.com']);
    const admins = adminUsersResponseSchema.parse((await callAs(m, HELPDESK, 'GET', '/api/admin/users?q=admin@')).json()).users;
    expect(admins[0]).toMatchObject({ upn: 'admin@example.com', protection: { protected: true, reason: 'restricted_role' } });
  });

  it('finds users by the first one or two letters of their sign-in name, e-mail, name or surname', async () => {
    const upnsFor = async (q: string) =>
      adminUsersResponseSchema
        .parse((await callAs(m, HELPDESK, 'GET', `/api/admin/users?q=${encodeURIComponent(q)}`)).json())
        .users.map((u) => u.upn);
    expect(await upnsFor('bo')).toContain('bob@example.com');
    // "Bob Brown": the surname's first letters find him too, whatever their case.
    expect(await upnsFor('bR')).toContain('bob@example.com');
    // Two letters inside a word are not looked for (no trigram): "ob" is not the start of anything of bob's.
    expect(await upnsFor('ob')).not.toContain('bob@example.com');
    // LIKE's wildcards are letters like any other.
    expect(await upnsFor('%')).toEqual([]);
    expect(await upnsFor('_o')).toEqual([]);
  });

  it('pages with a cursor', async () => {
    const first = adminUsersResponseSchema.parse((await callAs(m, HELPDESK, 'GET', '/api/admin/users?q=example.com&limit=2')).json());
    expect(first.users).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = adminUsersResponseSchema.parse(
      (await callAs(m, HELPDESK, 'GET', `/api/admin/users?q=example.com&limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`)).json(),
    );
    expect(second.users[0]!.upn > first.users[1]!.upn).toBe(true);
  });

  it('refuses a bad limit with the field', async () => {
    await refusedWithoutChange(HELPDESK, 'GET', '/api/admin/users?limit=1000', undefined, 400, 'request.invalid', 'limit');
  });
});

describe('GET /api/admin/users/:upn', () => {
  it('shows status, devices, bypass-code metadata, activity and the actions available', async () => {
    const res = await callAs(m, HELPDESK, 'GET', '/api/admin/users/BOB@example.com');
    expect(res.statusCode).toBe(200);
    const detail = adminUserDetailSchema.parse(res.json());
    expect(detail.user).toMatchObject({ upn: 'bob@example.com', displayName: 'Bob Brown', roles: [] });
    expect(detail.mfa.devices.map((d) => d.kind)).toEqual(['authenticator', 'hardware_token']);
    expect(detail.protection).toEqual({ protected: false, reason: null });
    expect(Object.values(detail.actions).every((a) => a.allowed)).toBe(true);
  });

  it("shows a Solution Administrator why a protected account's own pages refuse nothing to them but the holder", async () => {
    const detail = adminUserDetailSchema.parse((await callAs(m, ADMIN, 'GET', '/api/admin/users/helpdesk@example.com')).json());
    expect(detail.protection).toEqual({ protected: true, reason: 'restricted_role' });
    expect(detail.actions.create_bypass_codes).toEqual({ allowed: true, reason: null });
  });

  it('answers 404 for an unknown user and 400 for a malformed upn', async () => {
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/users/nobody@example.com');
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe('admin.user_not_found');
    await refusedWithoutChange(ADMIN, 'GET', '/api/admin/users/not-an-upn', undefined, 400, 'request.invalid', 'upn');
  });
});

describe('POST /api/admin/users/:upn/verify-identity', () => {
  it("checks a code from the user's token and audits the result both ways", async () => {
    const tokenId = await deviceIdOf(m.db, BOB.upn, 'hardware_token');
    const [code] = await demoTokenCodes(m.db, 'D100-0001', 1);
    const ok = await callAs(m, HELPDESK, 'POST', '/api/admin/users/bob@example.com/verify-identity', { deviceId: tokenId, code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ verified: true, reason: null, deviceId: tokenId });
    const bad = await callAs(m, HELPDESK, 'POST', '/api/admin/users/bob@example.com/verify-identity', {
      deviceId: tokenId,
      code: '000000',
    });
    expect(bad.json()).toMatchObject({ verified: false, reason: 'mfa.code_invalid' });
    const events = (await auditEvents(m.db, 'admin.user.verify_identity')).slice(-2);
    expect(events.map((e) => [e.actor_upn, e.target_upn, e.details?.verified])).toEqual([
      ['helpdesk@example.com', 'bob@example.com', true],
      ['helpdesk@example.com', 'bob@example.com', false],
    ]);
    expect(JSON.stringify(events)).not.toContain(code);
  });

  it("answers 404 for another user's device and 400 for a malformed code", async () => {
    const aliceless = await deviceIdOf(m.db, 'erin@example.com');
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      '/api/admin/users/bob@example.com/verify-identity',
      { deviceId: aliceless, code: '123456' },
      404,
      'device.not_found',
    );
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      '/api/admin/users/bob@example.com/verify-identity',
      { code: '12ab' },
      400,
      'request.invalid',
      'code',
    );
  });
});

describe('POST /api/admin/users/:upn/bypass-codes', () => {
  it('issues codes shown once, audited with the role, reason and ticket, and the user sees it in their activity', async () => {
    const res = await callAs(m, HELPDESK, 'POST', '/api/admin/users/bob@example.com/bypass-codes', {
      count: 1,
      validitySeconds: 86_400,
      reuseCount: 1,
      ...JUSTIFY,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { codes } = createBypassCodesResponseSchema.parse(res.json());
    expect(codes).toHaveLength(1);
    const [event] = (await auditEvents(m.db, 'admin.user.create_bypass_codes')).slice(-1);
    expect(event).toMatchObject({ actor_upn: HELPDESK.upn, target_upn: BOB.upn, outcome: 'success' });
    expect(event!.details).toMatchObject({ role: 'helpdesk', reason: JUSTIFY.reason, ticket: JUSTIFY.ticket, count: 1 });
    expect(JSON.stringify(event)).not.toContain(codes[0]!.code.replaceAll(' ', ''));
    const activity = await m.call(BOB.upn, 'GET', '/activity');
    expect((activity.json() as { entries: Array<{ story: string; actor: string; actorUpn: string }> }).entries[0]).toMatchObject({
      story: 'helpdesk_bypass_created',
      actor: 'service_desk',
      actorUpn: HELPDESK.upn,
    });
  });

  it('refuses without a ticket, or beyond 7 days, changing nothing', async () => {
    const url = '/api/admin/users/bob@example.com/bypass-codes';
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      url,
      { count: 1, validitySeconds: 3600, reason: 'x-ray' },
      400,
      'request.invalid',
      'ticket',
    );
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      url,
      { count: 1, validitySeconds: 604_801, ...JUSTIFY },
      400,
      'request.invalid',
      'validitySeconds',
    );
    await refusedWithoutChange(HELPDESK, 'POST', url, { count: 11, validitySeconds: 3600, ...JUSTIFY }, 400, 'request.invalid', 'count');
  });
});

describe('POST /api/admin/users/:upn/devices/:id/resync', () => {
  it("resynchronises the user's token with three consecutive codes", async () => {
    const tokenId = await deviceIdOf(m.db, BOB.upn, 'hardware_token');
    const codes = await demoTokenCodes(m.db, 'D100-0001', 3, 20);
    const res = await callAs(m, HELPDESK, 'POST', `/api/admin/users/bob@example.com/devices/${tokenId}/resync`, { codes, ...JUSTIFY });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses two codes (400, codes) and a wrong sequence (422), changing nothing', async () => {
    const tokenId = await deviceIdOf(m.db, BOB.upn, 'hardware_token');
    const url = `/api/admin/users/bob@example.com/devices/${tokenId}/resync`;
    await refusedWithoutChange(HELPDESK, 'POST', url, { codes: ['123456', '234567'], ...JUSTIFY }, 400, 'request.invalid', 'codes');
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      url,
      { codes: ['111111', '222222', '333333'], ...JUSTIFY },
      422,
      'mfa.code_invalid',
      'codes',
    );
  });
});

describe('DELETE /api/admin/users/:upn/devices/:id', () => {
  it("answers 404 for another user's device and 400 without a reason, changing nothing", async () => {
    const erins = await deviceIdOf(m.db, 'erin@example.com');
    await refusedWithoutChange(HELPDESK, 'DELETE', `/api/admin/users/bob@example.com/devices/${erins}`, JUSTIFY, 404, 'device.not_found');
    const bobs = await deviceIdOf(m.db, BOB.upn, 'authenticator');
    await refusedWithoutChange(
      HELPDESK,
      'DELETE',
      `/api/admin/users/bob@example.com/devices/${bobs}`,
      { ticket: 'INC-1' },
      400,
      'request.invalid',
      'reason',
    );
  });

  it("removes the user's device", async () => {
    const phone = await deviceIdOf(m.db, BOB.upn, 'authenticator');
    const res = await callAs(m, HELPDESK, 'DELETE', `/api/admin/users/bob@example.com/devices/${phone}`, JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    expect(await m.db.selectFrom('mfa_device').select('id').where('id', '=', phone).executeTakeFirst()).toBeUndefined();
  });
});

describe('POST /api/admin/users/:upn/lost-device', () => {
  it('removes the lost device and issues one single-use code valid 24 h; resumes after an interruption', async () => {
    const phone = await deviceIdOf(m.db, 'helpdesk@example.com', 'authenticator');
    // As the Solution Administrator (the holder is protected): the helpdesk member lost their phone.
    const url = '/api/admin/users/helpdesk@example.com/lost-device';
    const res = await callAs(m, ADMIN, 'POST', url, { deviceId: phone, ...JUSTIFY });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as { deviceRemoved: boolean; bypassCode: { expiresAt: string; usesLeft: number }; enrolmentUrl: string };
    expect(body).toMatchObject({ deviceRemoved: true, bypassCode: { usesLeft: 1 }, enrolmentUrl: m.t.config.publicUrl });
    expect(Date.parse(body.bypassCode.expiresAt) - Date.now()).toBeLessThanOrEqual(24 * 3600 * 1000);
    expect(await m.db.selectFrom('mfa_device').select('id').where('id', '=', phone).executeTakeFirst()).toBeUndefined();
    // Run again (say the code was never shown): the removal is skipped, a new code issued.
    const again = await callAs(m, ADMIN, 'POST', url, { deviceId: phone, ...JUSTIFY });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ deviceRemoved: false });
    const steps = (await auditEvents(m.db)).filter((e) => e.action.startsWith('admin.user.lost_device.')).map((e) => e.action);
    expect(steps).toEqual([
      'admin.user.lost_device.remove_device',
      'admin.user.lost_device.issue_bypass_code',
      'admin.user.lost_device.issue_bypass_code',
    ]);
  });

  it("refuses a validity beyond 24 h (400) and another user's device (404), changing nothing", async () => {
    const erins = await deviceIdOf(m.db, 'erin@example.com');
    const url = '/api/admin/users/bob@example.com/lost-device';
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      url,
      { deviceId: erins, validitySeconds: 86_401, ...JUSTIFY },
      400,
      'request.invalid',
      'validitySeconds',
    );
    await refusedWithoutChange(HELPDESK, 'POST', url, { deviceId: erins, ...JUSTIFY }, 404, 'device.not_found');
  });
});

describe('GET /api/admin/users/:upn/lost-device', () => {
  const GRACE = 'grace@example.com';
  const url = `/api/admin/users/${GRACE}/lost-device`;
  const progressOf = async (who = HELPDESK) => {
    const res = await callAs(m, who, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return adminLostDeviceProgressSchema.parse(res.json());
  };

  it('follows the wizard from the audit log and the devices: check, removal, code, new device, its first use', async () => {
    expect(await progressOf()).toEqual({ identityCheck: null, case: null });

    // 1. The caller checks a code of grace's token (a refused code does not count).
    const tokenId = await deviceIdOf(m.db, GRACE, 'hardware_token');
    await callAs(m, HELPDESK, 'POST', `/api/admin/users/${GRACE}/verify-identity`, { deviceId: tokenId, code: '000000' });
    expect((await progressOf()).identityCheck).toBeNull();
    const [code] = await demoTokenCodes(m.db, 'D100-0007', 1);
    await callAs(m, HELPDESK, 'POST', `/api/admin/users/${GRACE}/verify-identity`, { deviceId: tokenId, code });
    expect((await progressOf()).identityCheck).toMatchObject({ deviceId: tokenId });
    // Someone else's check is theirs, not the Solution Administrator's.
    expect((await progressOf(ADMIN)).identityCheck).toBeNull();

    // 2 and 3. The phone is removed and one code issued.
    const phone = await deviceIdOf(m.db, GRACE, 'authenticator');
    const lost = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${GRACE}/lost-device`, { deviceId: phone, ...JUSTIFY });
    expect(lost.statusCode, lost.body).toBe(201);
    const issued = lost.json() as { bypassCode: { id: string; code: string; expiresAt: string } };
    let progress = await progressOf();
    expect(progress.case).toMatchObject({
      actorUpn: HELPDESK.upn,
      reason: JUSTIFY.reason,
      ticket: JUSTIFY.ticket,
      removedDevice: { id: phone, name: 'Lost phone', kind: 'authenticator' },
      bypassCode: { id: issued.bypassCode.id, expiresAt: issued.bypassCode.expiresAt, usesLeft: 1 },
      newDevices: [],
      tested: null,
    });
    // The same case, seen by a colleague (the Solution Administrator), without the code itself.
    expect((await progressOf(ADMIN)).case?.bypassCode?.id).toBe(issued.bypassCode.id);
    expect(JSON.stringify(progress)).not.toContain(issued.bypassCode.code);

    // grace signs in with the code (here: a step-up with it): used up.
    const used = await m.call(GRACE, 'POST', '/step-up', { method: 'bypass', code: issued.bypassCode.code });
    expect(used.statusCode, used.body).toBe(200);
    expect((await progressOf()).case?.bypassCode).toMatchObject({ usesLeft: 0, expiresAt: null });

    // 4. She adds an authenticator app.
    const enrolment = await m.t.app.mfa.startTotpEnrolment(GRACE, { allowWhenDevicesExist: true, issuer: 'Test' });
    const device = await m.t.app.mfa.confirmTotpEnrolment(
      GRACE,
      enrolment.enrolmentId,
      { code: totpAt(enrolment.secret), name: 'New phone' },
      { allowWhenDevicesExist: true },
    );
    progress = await progressOf();
    expect(progress.case?.newDevices.map((d) => d.name)).toEqual(['New phone']);
    expect(progress.case?.tested).toBeNull();

    // 5. A code of the new device is accepted: the case is complete.
    const test = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${GRACE}/verify-identity`, {
      deviceId: device.id,
      code: totpAt(enrolment.secret, new Date(Date.now() + 30_000)),
    });
    expect(test.json()).toMatchObject({ verified: true });
    expect((await progressOf()).case?.tested).toMatchObject({ deviceId: device.id });
  });

  it('is refused to a Helpdesk Administrator on a protected account, and answers 400 for a malformed upn', async () => {
    await refusedWithoutChange(HELPDESK, 'GET', '/api/admin/users/admin@example.com/lost-device', undefined, 403, 'auth.forbidden');
    await refusedWithoutChange(ADMIN, 'GET', '/api/admin/users/nope/lost-device', undefined, 400, 'request.invalid', 'upn');
  });
});

describe('POST /api/admin/users/:upn/unlock and /activation', () => {
  it('ends a lockout', async () => {
    await m.db
      .updateTable('mfa_user')
      .set({ status: 'locked_out', status_reason: 'Too many', failed_attempts: 9 })
      .where('username', '=', 'carol@example.com')
      .execute();
    const res = await callAs(m, HELPDESK, 'POST', '/api/admin/users/carol@example.com/unlock', JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'active', statusReason: null });
    const row = await m.db.selectFrom('mfa_user').selectAll().where('username', '=', 'carol@example.com').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'active', failed_attempts: 0, locked_until: null });
  });

  it('returns the portal address to give the user (no e-mail is sent) and records it', async () => {
    const res = await callAs(m, HELPDESK, 'POST', '/api/admin/users/dave@example.com/activation', JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ activationUrl: m.t.config.publicUrl, emailSent: false });
    expect((await auditEvents(m.db, 'admin.user.send_activation')).slice(-1)[0]).toMatchObject({
      target_upn: 'dave@example.com',
      outcome: 'success',
    });
  });

  it('answers 404 for a user without an MFA account', async () => {
    await refusedWithoutChange(ADMIN, 'POST', '/api/admin/users/nomfa@example.com/unlock', JUSTIFY, 404, 'mfa.user_not_provisioned');
  });
});

describe('token inventory', () => {
  const seedHex = (n: number) => Buffer.alloc(20, n).toString('hex');

  it('imports a CSV with per-row validation and a report of what was refused', async () => {
    const csv = `serial,seed\nD100-9001,${seedHex(1)}\nD100-9002,not-hex\nD100-0002,${seedHex(2)}\nbad serial!,${seedHex(3)}\n`;
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/tokens/import', csv);
    expect(res.statusCode, res.body).toBe(200);
    const report = adminTokenImportResponseSchema.parse(res.json());
    expect(report).toEqual({
      imported: 1,
      refused: [
        { line: 3, serial: 'D100-9002', reason: 'seed_invalid' },
        { line: 4, serial: 'D100-0002', reason: 'serial_exists' },
        { line: 5, serial: 'bad serial!', reason: 'serial_invalid' },
      ],
    });
    const json = await callAs(m, ADMIN, 'POST', '/api/admin/tokens/import', { csv: `serial,seed\nD100-9003,${seedHex(4)}`, ...JUSTIFY });
    expect(json.json()).toEqual({ imported: 1, refused: [] });
    // The imported seed works: claim D100-9001 as alice with two codes.
    const claim = await m.call('alice@example.com', 'POST', '/devices/hardware-token', {
      serial: 'D100-9001',
      codes: [hotpCode(Buffer.alloc(20, 1), 0), hotpCode(Buffer.alloc(20, 1), 1)],
    });
    expect(claim.statusCode, claim.body).toBe(201);
  });

  it('refuses a file without the header row, changing nothing', async () => {
    await refusedWithoutChange(ADMIN, 'POST', '/api/admin/tokens/import', `D100-9100,${seedHex(5)}\n`, 400, 'token.import_invalid', 'csv');
  });

  it('lists and searches tokens', async () => {
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/tokens?q=erin&status=assigned');
    expect(res.statusCode).toBe(200);
    expect(adminTokensResponseSchema.parse(res.json()).tokens.map((t) => [t.serial, t.assignedTo])).toEqual([
      ['D100-0004', 'erin@example.com'],
    ]);
    await refusedWithoutChange(ADMIN, 'GET', '/api/admin/tokens?status=lost', undefined, 400, 'request.invalid', 'status');
  });

  it('unassigns a token (the holder sees it) and retires an available one', async () => {
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/tokens/D100-0004/unassign', JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ serial: 'D100-0004', status: 'available', assignedTo: null });
    const erin = await m.call('erin@example.com', 'GET', '/activity');
    expect((erin.json() as { entries: Array<{ story: string; serial: string }> }).entries[0]).toMatchObject({
      story: 'helpdesk_token_unassigned',
      serial: 'D100-0004',
    });
    await refusedWithoutChange(ADMIN, 'POST', '/api/admin/tokens/D100-0004/unassign', JUSTIFY, 409, 'token.not_assigned');
    await refusedWithoutChange(ADMIN, 'POST', '/api/admin/tokens/D100-0006/retire', JUSTIFY, 409, 'token.assigned');
    const retired = await callAs(m, ADMIN, 'POST', '/api/admin/tokens/D100-0004/retire', JUSTIFY);
    expect(retired.json()).toMatchObject({ status: 'retired' });
    await refusedWithoutChange(ADMIN, 'POST', '/api/admin/tokens/D100-9999/retire', JUSTIFY, 404, 'token.not_found');
    await refusedWithoutChange(ADMIN, 'POST', '/api/admin/tokens/D100-0003/retire', {}, 400, 'request.invalid', 'reason');
  });
});

describe('audit log', () => {
  it('filters by actor, target, action and outcome, newest first, paged', async () => {
    const res = await callAs(
      m,
      ADMIN,
      'GET',
      '/api/admin/audit?actor=helpdesk@example.com&target=bob@example.com&action=admin.user.verify_identity&outcome=failure',
    );
    expect(res.statusCode, res.body).toBe(200);
    const { events } = adminAuditResponseSchema.parse(res.json());
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.action === 'admin.user.verify_identity' && e.outcome === 'failure' && e.targetUpn === BOB.upn)).toBe(true);
    const prefixed = adminAuditResponseSchema.parse((await callAs(m, ADMIN, 'GET', '/api/admin/audit?action=admin.*&limit=2')).json());
    expect(prefixed.events).toHaveLength(2);
    expect(Number(prefixed.events[0]!.id)).toBeGreaterThan(Number(prefixed.events[1]!.id));
    expect(prefixed.nextCursor).toBe(prefixed.events[1]!.id);
    const future = adminAuditResponseSchema.parse((await callAs(m, ADMIN, 'GET', '/api/admin/audit?from=2999-01-01T00:00:00Z')).json());
    expect(future.events).toEqual([]);
  });

  it('refuses bad filters with the field', async () => {
    await refusedWithoutChange(ADMIN, 'GET', '/api/admin/audit?outcome=maybe', undefined, 400, 'request.invalid', 'outcome');
    await refusedWithoutChange(ADMIN, 'GET', '/api/admin/audit?from=yesterday', undefined, 400, 'request.invalid', 'from');
  });

  it('exports the same filters as CSV with a header row', async () => {
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/audit.csv?target=bob@example.com');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      '"id","occurredAt","actorUpn","actorRoles","targetUpn","action","outcome","reason","requestId","clientAddress","details","hash"',
    );
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.slice(1).every((l) => l.includes('"bob@example.com"'))).toBe(true);
    expect(res.body).toContain('admin.user.create_bypass_codes');
  });

  it('verifies the chain, and reports the first broken link after tampering in SQL', async () => {
    const ok = await callAs(m, ADMIN, 'GET', '/api/admin/audit/verify');
    expect(ok.json()).toMatchObject({ ok: true });
    const count = (ok.json() as { count: number }).count;
    expect(count).toBeGreaterThan(10);

    const rows = await m.db.selectFrom('audit_event').select(['id']).orderBy('id').execute();
    const victim = rows[5]!.id;
    // The append-only trigger refuses UPDATE and DELETE; a superuser with access to the database can lift it.
    await sql`alter table audit_event disable trigger all`.execute(m.db);
    try {
      await sql`update audit_event set action = 'device.rename' where id = ${victim}`.execute(m.db);
      const edited = await callAs(m, ADMIN, 'GET', '/api/admin/audit/verify');
      expect(edited.json()).toEqual({ ok: false, brokenAt: 5, id: String(victim), reason: 'hash_mismatch' });

      await sql`delete from audit_event where id = ${victim}`.execute(m.db);
      const deleted = await callAs(m, ADMIN, 'GET', '/api/admin/audit/verify');
      expect(deleted.json()).toEqual({ ok: false, brokenAt: 5, id: String(rows[6]!.id), reason: 'prev_mismatch' });
    } finally {
      await sql`alter table audit_event enable trigger all`.execute(m.db);
    }
  });
});
