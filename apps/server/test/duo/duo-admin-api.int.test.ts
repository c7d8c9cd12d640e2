import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuditResponseSchema,
  adminLostDeviceProgressSchema,
  adminLostDeviceResponseSchema,
  adminUserDetailSchema,
  adminUsersResponseSchema,
  adminVerifyIdentityResponseSchema,
  createBypassCodesResponseSchema,
} from '@mfa-portal/shared';
import { DUO_NEVER_EXPIRES } from '../../src/mfa/duo/duo-mapping.js';
import { portalIdOf } from '../../src/mfa/duo/ids.js';
import { ADMIN, BOB, callAs, HELPDESK, JUSTIFY, type Method, verifyByHand } from '../admin-api.js';
import { auditEvents, errorOf, meTestApp, nextSecond, type MeTestApp } from '../me-api.js';
import { createDirectorySync } from '../../src/modules/directory/directory-sync.js';
import { directoryRepository } from '../../src/modules/directory/directory.repository.js';

/** The directory sync of `app` (what app.ts runs every DUO_DIRECTORY_SYNC_MINUTES), with recorded pauses. */
function syncOf(app: MeTestApp, pauses: number[] = []) {
  return createDirectorySync({
    mfa: app.t.app.mfa,
    directory: directoryRepository(app.db),
    everyMinutes: 0,
    callsPerSecond: 50,
    sleep: async (ms) => void pauses.push(ms),
  });
}
import type { DuoStandin, StandinUser } from './duo-standin.js';
import { duoEnv, seedDemoStaff, startStandin } from './support.js';

/**
 * Contract suite: the administration API (/api/admin/...), unchanged, with MFA_PROVIDER=duo against
 * the Duo stand-in. Duo's lists are paged two by two (the stand-in's maxLimit), so every read follows
 * next_offset to the end. Where Duo cannot do what the builtin provider does (the token inventory and
 * its seeds are kept at Duo), the API answers a stable refusal and nothing changes at Duo.
 */

let standin: DuoStandin;
let m: MeTestApp;
let seed: ReturnType<typeof seedDemoStaff>;
let carol: StandinUser;
let erin: StandinUser;

/** Expects a refusal with `status`/`code` that leaves Duo's state as it was. */
async function refusedWithoutChange(
  who: { upn: string; roles: string[] },
  method: Method,
  url: string,
  payload: unknown,
  status: number,
  code: string,
  field?: string,
) {
  const before = standin.snapshot();
  const res = await callAs(m, who, method, url, payload);
  expect(res.statusCode, res.body).toBe(status);
  expect(errorOf(res).code).toBe(code);
  if (field !== undefined) expect(errorOf(res).details?.field).toBe(field);
  expect(standin.snapshot()).toBe(before);
  return res;
}

const lastAudit = async (action: string) => (await auditEvents(m.db, action)).at(-1);

beforeAll(async () => {
  standin = await startStandin({ maxLimit: 2, lockoutThreshold: 5 });
  seed = seedDemoStaff(standin);
  // The other demo staff of the embedded directory, as they would be at Duo (nomfa is absent).
  carol = standin.addUser({ username: 'carol@example.com', realname: 'Carol Clark' });
  standin.addUser({ username: 'dave@example.com', realname: 'Dave Dunn' });
  erin = standin.addUser({ username: 'erin@example.com', realname: 'Erin Evans' });
  standin.addPhone({ userId: erin.user_id, number: '+15555550177', name: 'Erin’s phone', activated: true });
  m = await meTestApp(duoEnv(standin, { MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '10000' }));
  await syncOf(m).syncOnce();
  // Verify, then issue: the helpdesk has verified the users it acts for.
  for (const upn of ['bob@example.com', 'erin@example.com', 'dave@example.com']) await verifyByHand(m, HELPDESK, upn);
});
afterAll(async () => {
  await m?.close();
  await standin?.close();
});

describe('GET /api/admin/users on Duo', () => {
  it('finds users by part of their name, upn or email in the portal’s directory, without asking Duo', async () => {
    const before = standin.requests.length;
    const res = await callAs(m, HELPDESK, 'GET', '/api/admin/users?q=BROWN');
    expect(res.statusCode, res.body).toBe(200);
    expect(adminUsersResponseSchema.parse(res.json()).users).toEqual([
      {
        upn: 'bob@example.com',
        email: 'bob@example.com',
        realName: 'Bob Brown',
        status: 'active',
        protection: { protected: false, reason: null },
      },
    ]);
    // No Admin API call per search (Duo's whole list was ~334 calls at 100,000 users).
    expect(standin.requests.length).toBe(before);
    const admins = adminUsersResponseSchema.parse((await callAs(m, HELPDESK, 'GET', '/api/admin/users?q=admin@')).json()).users;
    expect(admins).toEqual([
      expect.objectContaining({ upn: 'admin@example.com', protection: { protected: true, reason: 'restricted_role' } }),
    ]);
    const disabled = adminUsersResponseSchema.parse((await callAs(m, HELPDESK, 'GET', '/api/admin/users?q=Dan%20Dis')).json()).users;
    expect(disabled.map((u) => [u.upn, u.status])).toEqual([['disabled@example.com', 'disabled']]);
    expect(standin.requests.length).toBe(before);
  });

  it('the directory sync reads Duo’s user list a page at a time, paced, and adds whom nobody saw sign in', async () => {
    standin.addUser({ username: 'newcomer@example.com', realname: 'Nadia Newcomer' });
    const none = adminUsersResponseSchema.parse((await callAs(m, HELPDESK, 'GET', '/api/admin/users?q=newcomer')).json()).users;
    expect(none).toEqual([]);
    const before = standin.requestsTo('GET', /^\/admin\/v1\/users$/).length;
    const pauses: number[] = [];
    const seen = await syncOf(m, pauses).syncOnce();
    const pages = standin.requestsTo('GET', /^\/admin\/v1\/users$/).slice(before);
    // Two users a page (the stand-in's limit here): one call per page, each after a pause of the pace.
    expect(pages.map((r) => r.params.offset)).toEqual(Array.from({ length: Math.ceil(seen / 2) }, (_, i) => String(i * 2)));
    expect(pauses.length).toBeGreaterThanOrEqual(pages.length - 1);
    const found = adminUsersResponseSchema.parse((await callAs(m, HELPDESK, 'GET', '/api/admin/users?q=newcomer')).json()).users;
    // Never seen at sign-in: roles unknown, so protected.
    expect(found).toEqual([
      {
        upn: 'newcomer@example.com',
        // The stand-in gives every user an e-mail address like Duo does.
        email: 'newcomer@example.com',
        realName: 'Nadia Newcomer',
        status: 'active',
        protection: { protected: true, reason: 'roles_unknown' },
      },
    ]);
  });

  it('pages the portal’s answer with a cursor to the end', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/admin/users?q=example.com&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = adminUsersResponseSchema.parse((await callAs(m, HELPDESK, 'GET', url)).json());
      expect(page.users.length).toBeLessThanOrEqual(3);
      seen.push(...page.users.map((u) => u.upn));
      cursor = page.nextCursor;
    } while (cursor);
    const directory = await m.db.selectFrom('directory_user').select('upn').where('upn', 'like', '%example.com%').orderBy('upn').execute();
    expect(seen).toEqual(directory.map((d) => d.upn));
    expect(seen).toEqual(
      expect.arrayContaining(['admin@example.com', 'bob@example.com', 'carol@example.com', 'erin@example.com', 'helpdesk@example.com']),
    );
  });

  it('400 for a bad limit, Duo not asked', async () => {
    const before = standin.requests.length;
    await refusedWithoutChange(HELPDESK, 'GET', '/api/admin/users?limit=1000', undefined, 400, 'request.invalid', 'limit');
    expect(standin.requests.length).toBe(before);
  });
});

describe('GET /api/admin/users/:upn on Duo', () => {
  it('shows status, devices and bypass-code metadata read from Duo, with the actions available', async () => {
    const unlimited = standin.addBypassCode(seed.bob.user_id, { code: '424242424', expiration: null, reuseCount: 0 });
    const res = await callAs(m, HELPDESK, 'GET', '/api/admin/users/BOB@example.com');
    standin.bypassCodes.delete(unlimited.bypass_code_id);
    expect(res.statusCode, res.body).toBe(200);
    const detail = adminUserDetailSchema.parse(res.json());
    expect(detail.user).toMatchObject({ upn: 'bob@example.com', displayName: 'Bob Brown', roles: [] });
    expect(detail.mfa).toMatchObject({ provider: 'duo', status: 'active' });
    expect(detail.mfa.devices.map((d) => d.id)).toEqual([
      portalIdOf('phone', seed.bobPhone.phone_id),
      portalIdOf('token', seed.bobToken.token_id),
    ]);
    // A code made in Duo's Admin Panel with no limit of uses: listed, as unlimited.
    expect(detail.bypassCodes).toEqual([expect.objectContaining({ usesLeft: null, expiresAt: DUO_NEVER_EXPIRES.toISOString() })]);
    expect(detail.protection).toEqual({ protected: false, reason: null });
    expect(Object.values(detail.actions).every((a) => a.allowed)).toBe(true);
  });

  it('a person the portal knows but Duo does not: not provisioned; unknown to both: 404', async () => {
    const nomfa = adminUserDetailSchema.parse((await callAs(m, HELPDESK, 'GET', '/api/admin/users/nomfa@example.com')).json());
    expect(nomfa.mfa).toMatchObject({ status: 'not_provisioned', devices: [] });
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/users/nobody@example.com');
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe('admin.user_not_found');
  });

  it('403 for helpdesk on a protected account and on their own, audited, nothing read or changed at Duo', async () => {
    const before = standin.requests.length;
    await refusedWithoutChange(HELPDESK, 'GET', '/api/admin/users/admin@example.com', undefined, 403, 'auth.forbidden');
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      '/api/admin/users/helpdesk@example.com/bypass-codes',
      { count: 1, validitySeconds: 600, ...JUSTIFY },
      403,
      'auth.forbidden',
    );
    await refusedWithoutChange(BOB, 'GET', '/api/admin/users/carol@example.com', undefined, 403, 'auth.forbidden');
    expect(standin.requests.length).toBe(before);
    expect(await lastAudit('admin.user.create_bypass_codes')).toMatchObject({
      actor_upn: HELPDESK.upn,
      outcome: 'failure',
      reason: 'auth.forbidden',
    });
  });
});

describe('POST /api/admin/users/:upn/verify-identity on Duo', () => {
  it('checks a code of the user’s token through the Auth API and reports both results, audited', async () => {
    const tokenId = portalIdOf('token', seed.bobToken.token_id);
    const [code] = standin.tokenCodes('D100-0001', 1);
    const ok = await callAs(m, HELPDESK, 'POST', '/api/admin/users/bob@example.com/verify-identity', { deviceId: tokenId, code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(adminVerifyIdentityResponseSchema.parse(ok.json())).toMatchObject({ verified: true, reason: null, deviceId: tokenId });
    expect(standin.requests.filter((r) => r.api === 'auth').at(-1)).toMatchObject({
      path: '/auth/v2/auth',
      params: { user_id: seed.bob.user_id, factor: 'passcode' },
    });
    const again = await callAs(m, HELPDESK, 'POST', '/api/admin/users/bob@example.com/verify-identity', { deviceId: tokenId, code });
    expect(again.json()).toMatchObject({ verified: false, reason: 'mfa.code_invalid' });
    const events = (await auditEvents(m.db, 'admin.user.verify_identity')).slice(-2);
    expect(events.map((e) => e.details?.verified)).toEqual([true, false]);
    expect(JSON.stringify(events)).not.toContain(code);
  });

  it('404 for another user’s device, 400 for a malformed code, nothing changed', async () => {
    const erinsPhone = portalIdOf('phone', [...standin.phones.values()].find((p) => p.userIds.includes(erin.user_id))!.phone_id);
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      '/api/admin/users/bob@example.com/verify-identity',
      { deviceId: erinsPhone, code: '123456' },
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

describe('POST /api/admin/users/:upn/bypass-codes on Duo', () => {
  const url = '/api/admin/users/bob@example.com/bypass-codes';

  it('issues codes at Duo with Duo’s parameters (reuse_count and preserve_existing always sent), audited, seen by the user', async () => {
    const res = await callAs(m, HELPDESK, 'POST', url, { count: 3, validitySeconds: 86_400, reuseCount: 2, ...JUSTIFY });
    expect(res.statusCode, res.body).toBe(201);
    const { codes } = createBypassCodesResponseSchema.parse(res.json());
    expect(codes).toHaveLength(3);
    expect(codes.every((c) => c.usesLeft === 2)).toBe(true);
    expect(standin.requestsTo('POST', /\/bypass_codes$/).at(-1)!.params).toEqual({
      count: '3',
      valid_secs: '86400',
      reuse_count: '2',
      preserve_existing: 'true',
    });
    expect(standin.liveBypassCodes(seed.bob.user_id).map((b) => b.reuse_count)).toEqual([2, 2, 2]);
    const event = await lastAudit('admin.user.create_bypass_codes');
    expect(event).toMatchObject({ actor_upn: HELPDESK.upn, target_upn: BOB.upn, outcome: 'success' });
    expect(event!.details).toMatchObject({ role: 'helpdesk', reason: JUSTIFY.reason, ticket: JUSTIFY.ticket, count: 3 });
    expect(JSON.stringify(event)).not.toContain(codes[0]!.code.replaceAll(' ', ''));
    const activity = await m.call(BOB.upn, 'GET', '/activity');
    expect((activity.json() as { entries: Array<{ story: string; actor: string; actorUpn: string }> }).entries[0]).toMatchObject({
      story: 'helpdesk_bypass_created',
      actor: 'service_desk',
      actorUpn: HELPDESK.upn,
    });
    // The user page lists their metadata, read from Duo.
    const detail = adminUserDetailSchema.parse((await callAs(m, HELPDESK, 'GET', '/api/admin/users/bob@example.com')).json());
    expect(detail.bypassCodes.map((c) => c.id).sort()).toEqual(codes.map((c) => c.id).sort());
  });

  it.each([
    ['11 codes', { count: 11, validitySeconds: 3600 }, 'count'],
    ['0 codes', { count: 0, validitySeconds: 3600 }, 'count'],
    ['a validity of 0 (Duo: forever)', { count: 1, validitySeconds: 0 }, 'validitySeconds'],
    ['over 7 days', { count: 1, validitySeconds: 604_801 }, 'validitySeconds'],
    ['a reuse count of 0 (Duo: unlimited)', { count: 1, validitySeconds: 3600, reuseCount: 0 }, 'reuseCount'],
  ])('400 for %s, never sent to Duo', async (_label, body, field) => {
    const before = standin.requestsTo('POST', /\/bypass_codes$/).length;
    await refusedWithoutChange(HELPDESK, 'POST', url, { ...body, ...JUSTIFY }, 400, 'request.invalid', field);
    expect(standin.requestsTo('POST', /\/bypass_codes$/)).toHaveLength(before);
  });

  it('400 without a ticket, nothing changed', async () => {
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      url,
      { count: 1, validitySeconds: 3600, reason: 'x-ray' },
      400,
      'request.invalid',
      'ticket',
    );
  });

  it('replaceExisting: preserve_existing=false, the codes replaced counted', async () => {
    const live = standin.liveBypassCodes(seed.bob.user_id).length;
    const res = await callAs(m, ADMIN, 'POST', url, { count: 1, validitySeconds: 600, replaceExisting: true, ...JUSTIFY });
    expect(res.statusCode, res.body).toBe(201);
    expect(createBypassCodesResponseSchema.parse(res.json()).replaced).toBe(live);
    expect(standin.requestsTo('POST', /\/bypass_codes$/).at(-1)!.params.preserve_existing).toBe('false');
    expect(standin.liveBypassCodes(seed.bob.user_id)).toHaveLength(1);
  });
});

describe('POST /api/admin/users/:upn/devices/:id/resync on Duo', () => {
  it('resynchronises the user’s token at Duo with three consecutive codes; 422 for a wrong sequence; 400 for two', async () => {
    const tokenId = portalIdOf('token', seed.bobToken.token_id);
    const url = `/api/admin/users/bob@example.com/devices/${tokenId}/resync`;
    const codes = standin.tokenCodes('D100-0001', 3, 40);
    const counter = standin.token('D100-0001').counter;
    const res = await callAs(m, HELPDESK, 'POST', url, { codes, ...JUSTIFY });
    expect(res.statusCode, res.body).toBe(200);
    expect(standin.token('D100-0001').counter).toBe(counter + 43);
    expect(standin.requestsTo('POST', /\/resync$/).at(-1)!.params).toEqual({ code1: codes[0], code2: codes[1], code3: codes[2] });
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      url,
      { codes: ['111111', '222222', '333333'], ...JUSTIFY },
      422,
      'mfa.code_invalid',
      'codes',
    );
    await refusedWithoutChange(HELPDESK, 'POST', url, { codes: ['123456', '234567'], ...JUSTIFY }, 400, 'request.invalid', 'codes');
    const phone = portalIdOf('phone', seed.bobPhone.phone_id);
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      `/api/admin/users/bob@example.com/devices/${phone}/resync`,
      { codes: ['123456', '234567', '345678'], ...JUSTIFY },
      409,
      'device.not_hardware_token',
    );
  });
});

describe('DELETE /api/admin/users/:upn/devices/:id on Duo', () => {
  it('404 for another user’s device, 400 without a reason, 409 for the last device unless confirmed; then removed at Duo', async () => {
    const erinsPhone = [...standin.phones.values()].find((p) => p.userIds.includes(erin.user_id))!;
    const erinsId = portalIdOf('phone', erinsPhone.phone_id);
    await refusedWithoutChange(HELPDESK, 'DELETE', `/api/admin/users/bob@example.com/devices/${erinsId}`, JUSTIFY, 404, 'device.not_found');
    await refusedWithoutChange(
      HELPDESK,
      'DELETE',
      `/api/admin/users/erin@example.com/devices/${erinsId}`,
      { ticket: 'INC-1' },
      400,
      'request.invalid',
      'reason',
    );
    await refusedWithoutChange(
      HELPDESK,
      'DELETE',
      `/api/admin/users/erin@example.com/devices/${erinsId}`,
      JUSTIFY,
      409,
      'device.last_device_confirmation_required',
    );
    const res = await callAs(m, HELPDESK, 'DELETE', `/api/admin/users/erin@example.com/devices/${erinsId}`, {
      ...JUSTIFY,
      confirmLastDevice: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ device: { id: erinsId, kind: 'phone' } });
    expect(standin.phones.has(erinsPhone.phone_id)).toBe(false);
    expect(await lastAudit('admin.user.delete_device')).toMatchObject({ target_upn: 'erin@example.com', outcome: 'success' });
  });
});

describe('POST /api/admin/users/:upn/lost-device on Duo', () => {
  it('removes the lost phone and issues one single-use code valid 24 h at Duo; resumes after an interruption', async () => {
    const phone = portalIdOf('phone', seed.bobPhone.phone_id);
    const url = '/api/admin/users/bob@example.com/lost-device';
    const res = await callAs(m, HELPDESK, 'POST', url, { deviceId: phone, ...JUSTIFY });
    expect(res.statusCode, res.body).toBe(201);
    const body = adminLostDeviceResponseSchema.parse(res.json());
    expect(body).toMatchObject({ deviceRemoved: true, bypassCode: { usesLeft: 1 }, enrolmentUrl: m.t.config.publicUrl });
    expect(Date.parse(body.bypassCode.expiresAt) - Date.now()).toBeLessThanOrEqual(24 * 3600 * 1000);
    expect(standin.phones.has(seed.bobPhone.phone_id)).toBe(false);
    expect(standin.requestsTo('POST', /\/bypass_codes$/).at(-1)!.params).toEqual({
      count: '1',
      valid_secs: '86400',
      reuse_count: '1',
      preserve_existing: 'true',
    });
    // The code works once, as Bob signs in with it.
    const code = body.bypassCode.code;
    expect((await m.call(BOB.upn, 'POST', '/step-up', { method: 'bypass', code })).statusCode).toBe(200);
    expect((await m.call(BOB.upn, 'POST', '/step-up', { method: 'bypass', code })).statusCode).toBe(422);
    const again = await callAs(m, HELPDESK, 'POST', url, { deviceId: phone, ...JUSTIFY });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ deviceRemoved: false });
    const steps = (await auditEvents(m.db)).filter((e) => e.action.startsWith('admin.user.lost_device.')).map((e) => e.action);
    expect(steps).toEqual([
      'admin.user.lost_device.remove_device',
      'admin.user.lost_device.issue_bypass_code',
      'admin.user.lost_device.issue_bypass_code',
    ]);
  });

  it('sees the device added after the removal as new, though Duo gives no date of addition', async () => {
    const frank = standin.addUser({ username: 'frank@example.com', realname: 'Frank Fisher' });
    const lostPhone = standin.addPhone({ userId: frank.user_id, number: '+15555550191', name: 'Dropped phone', activated: true });
    const kept = standin.addToken({ serial: 'FRANK-KEPT', userId: frank.user_id });
    const url = '/api/admin/users/frank@example.com/lost-device';
    const progressOf = async () => {
      const res = await callAs(m, HELPDESK, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      return adminLostDeviceProgressSchema.parse(res.json());
    };
    await verifyByHand(m, HELPDESK, 'frank@example.com');
    const lost = await callAs(m, HELPDESK, 'POST', url, { deviceId: portalIdOf('phone', lostPhone.phone_id), ...JUSTIFY });
    expect(lost.statusCode, lost.body).toBe(201);
    // The token kept is not new (Duo dates every device by the user's creation, long before the removal).
    expect((await progressOf()).case).toMatchObject({ removedDevice: { name: 'Dropped phone' }, newDevices: [] });

    // frank claims another token at Duo.
    const added = standin.addToken({ serial: 'FRANK-NEW', userId: frank.user_id });
    const progress = await progressOf();
    expect(progress.case?.newDevices.map((d) => d.id)).toEqual([portalIdOf('token', added.token_id)]);
    expect(progress.case?.newDevices.map((d) => d.id)).not.toContain(portalIdOf('token', kept.token_id));
    expect(progress.case?.tested).toBeNull();
  });

  it('400 beyond 24 h, 404 for a device this wizard did not remove; nothing changed', async () => {
    const url = '/api/admin/users/bob@example.com/lost-device';
    const other = portalIdOf('phone', 'DPNEVERSEEN000000000');
    await refusedWithoutChange(
      HELPDESK,
      'POST',
      url,
      { deviceId: other, validitySeconds: 86_401, ...JUSTIFY },
      400,
      'request.invalid',
      'validitySeconds',
    );
    await refusedWithoutChange(HELPDESK, 'POST', url, { deviceId: other, ...JUSTIFY }, 404, 'device.not_found');
  });
});

describe('POST /api/admin/users/:upn/unlock on Duo', () => {
  it('ends a lockout at Duo (Modify User status=active); the user can verify again', async () => {
    standin.addToken({ serial: 'CAROL-1', userId: carol.user_id });
    const fail = () => m.call('carol@example.com', 'POST', '/step-up', { method: 'passcode', code: '000000' });
    for (let i = 0; i < 4; i += 1) expect((await fail()).statusCode).toBe(422);
    expect((await fail()).statusCode).toBe(403);
    expect(standin.user('carol@example.com')).toMatchObject({ status: 'locked out', lockout_reason: 'Failed Attempts' });
    const detail = adminUserDetailSchema.parse((await callAs(m, HELPDESK, 'GET', '/api/admin/users/carol@example.com')).json());
    expect(detail.mfa).toMatchObject({ status: 'locked_out', statusReason: 'Failed Attempts' });

    const res = await callAs(m, HELPDESK, 'POST', '/api/admin/users/carol@example.com/unlock', JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'active', statusReason: null });
    expect(standin.user('carol@example.com').status).toBe('active');
    expect(standin.requestsTo('POST', new RegExp(`^/admin/v1/users/${carol.user_id}$`)).at(-1)).toMatchObject({
      params: { status: 'active' },
      signatureVersion: 2,
      status: 200,
    });
    expect(await lastAudit('admin.user.unlock')).toMatchObject({
      actor_upn: HELPDESK.upn,
      target_upn: 'carol@example.com',
      outcome: 'success',
      details: { role: 'helpdesk', status: 'active', ticket: JUSTIFY.ticket },
    });
    const [code] = standin.tokenCodes('CAROL-1', 1);
    // The lockout ended carol's sessions: she signs in again (a token issued after it).
    await nextSecond();
    expect((await m.call('carol@example.com', 'POST', '/step-up', { method: 'passcode', code })).statusCode).toBe(200);
  });

  it('a disabled user stays disabled; not provisioned: 404; nothing changed at Duo', async () => {
    const res = await refusedWithoutChange(
      ADMIN,
      'POST',
      '/api/admin/users/nomfa@example.com/unlock',
      JUSTIFY,
      404,
      'mfa.user_not_provisioned',
    );
    expect(res.statusCode).toBe(404);
    const before = standin.snapshot();
    const disabled = await callAs(m, HELPDESK, 'POST', '/api/admin/users/disabled@example.com/unlock', JUSTIFY);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ status: 'disabled' });
    expect(standin.snapshot()).toBe(before);
  });
});

describe('the admin API with signature v5 (JSON bodies)', () => {
  it('DUO_SIGNATURE_VERSION=5: the directory sync reads every page and unlock modifies the user, all signed v5', async () => {
    const v5 = await meTestApp(duoEnv(standin, { DUO_SIGNATURE_VERSION: '5' }));
    try {
      const frozen = standin.addUser({ username: 'frozen@example.com', status: 'locked out', lockoutReason: 'Failed Attempts' });
      const before = standin.requests.length;
      await syncOf(v5).syncOnce();
      const found = await callAs(v5, HELPDESK, 'GET', '/api/admin/users?q=frozen');
      expect(found.statusCode, found.body).toBe(200);
      expect(adminUsersResponseSchema.parse(found.json()).users.map((u) => u.upn)).toEqual(['frozen@example.com']);
      // frozen@ is unknown to the portal's directory: protected (roles unknown), so the Solution Administrator unlocks.
      const res = await callAs(v5, ADMIN, 'POST', '/api/admin/users/frozen@example.com/unlock', JUSTIFY);
      expect(res.statusCode, res.body).toBe(200);
      expect(standin.user('frozen@example.com').status).toBe('active');
      const calls = standin.requests.slice(before);
      expect(calls.filter((r) => r.path === '/admin/v1/users' && !r.params.username).length).toBeGreaterThan(1);
      expect(calls.every((r) => r.signatureVersion === 5 && r.status === 200)).toBe(true);
      expect(calls.at(-1)).toMatchObject({
        method: 'POST',
        path: `/admin/v1/users/${frozen.user_id}`,
        contentType: 'application/json',
        params: { status: 'active' },
      });
    } finally {
      await v5.close();
    }
  });
});

describe('POST /api/admin/users/:upn/activation on Duo', () => {
  it('returns the portal address for a user Duo knows (no e-mail), 404 for one it does not', async () => {
    const res = await callAs(m, HELPDESK, 'POST', '/api/admin/users/dave@example.com/activation', JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ activationUrl: m.t.config.publicUrl, emailSent: false });
    expect(await lastAudit('admin.user.send_activation')).toMatchObject({ target_upn: 'dave@example.com', outcome: 'success' });
    await refusedWithoutChange(HELPDESK, 'POST', '/api/admin/users/nomfa@example.com/activation', JUSTIFY, 404, 'mfa.user_not_provisioned');
  });
});

describe('token inventory on Duo (kept at Duo: refused, nothing changed)', () => {
  const seedHex = Buffer.alloc(20, 7).toString('hex');

  it('409 mfa.not_supported_by_provider for list, CSV import of seeds, unassign and retire', async () => {
    const before = standin.requests.length;
    await refusedWithoutChange(ADMIN, 'GET', '/api/admin/tokens', undefined, 409, 'mfa.not_supported_by_provider');
    await refusedWithoutChange(
      ADMIN,
      'POST',
      '/api/admin/tokens/import',
      `serial,seed\nD100-9001,${seedHex}\n`,
      409,
      'mfa.not_supported_by_provider',
    );
    await refusedWithoutChange(ADMIN, 'POST', '/api/admin/tokens/D100-0001/unassign', JUSTIFY, 409, 'mfa.not_supported_by_provider');
    await refusedWithoutChange(ADMIN, 'POST', '/api/admin/tokens/D100-0002/retire', JUSTIFY, 409, 'mfa.not_supported_by_provider');
    // Nothing was even asked of Duo, and no token appeared anywhere.
    expect(standin.requests.length).toBe(before);
    expect([...standin.tokens.values()].some((t) => t.serial === 'D100-9001')).toBe(false);
    expect(await lastAudit('admin.inventory.import')).toMatchObject({ outcome: 'failure', reason: 'mfa.not_supported_by_provider' });
    // Staff and helpdesk are still refused first (403), as on the builtin provider.
    await refusedWithoutChange(HELPDESK, 'GET', '/api/admin/tokens', undefined, 403, 'auth.forbidden');
  });
});

describe('audit log on Duo', () => {
  it('holds every admin action taken on Duo, filtered, as CSV, and its chain verifies', async () => {
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/audit?actor=helpdesk@example.com&action=admin.*&outcome=success');
    expect(res.statusCode, res.body).toBe(200);
    const actions = new Set(adminAuditResponseSchema.parse(res.json()).events.map((e) => e.action));
    for (const a of [
      'admin.user.create_bypass_codes',
      'admin.user.resync_token',
      'admin.user.delete_device',
      'admin.user.lost_device.remove_device',
      'admin.user.unlock',
      'admin.user.send_activation',
      'admin.user.verify_identity',
    ])
      expect(actions).toContain(a);
    const csv = await callAs(m, ADMIN, 'GET', '/api/admin/audit.csv?target=carol@example.com');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toContain('admin.user.unlock');
    const verify = await callAs(m, ADMIN, 'GET', '/api/admin/audit/verify');
    expect(verify.json()).toMatchObject({ ok: true });
    await refusedWithoutChange(ADMIN, 'GET', '/api/admin/audit?outcome=maybe', undefined, 400, 'request.invalid', 'outcome');
  });
});

describe('Duo rate limits and outages through the admin API', () => {
  it('429 twice on the user list: the directory sync backs off (Duo asked three times for that page) and completes', async () => {
    const before = standin.requestsTo('GET', /^\/admin\/v1\/users$/).length;
    standin.failNext({ times: 2, status: 429, method: 'GET', path: /^\/admin\/v1\/users$/ });
    expect(await syncOf(m).syncOnce()).toBeGreaterThan(0);
    const res = await callAs(m, HELPDESK, 'GET', '/api/admin/users?q=carol');
    expect(res.statusCode, res.body).toBe(200);
    expect(adminUsersResponseSchema.parse(res.json()).users.map((u) => u.upn)).toEqual(['carol@example.com']);
    const calls = standin.requestsTo('GET', /^\/admin\/v1\/users$/).slice(before);
    expect(calls.slice(0, 3).map((r) => [r.params.offset, r.status])).toEqual([
      ['0', 429],
      ['0', 429],
      ['0', 200],
    ]);
  });

  it('a 5xx on issuing bypass codes (a POST): not retried, 503, audited; Duo asked once even when it did the work', async () => {
    standin.clearFaults();
    const url = '/api/admin/users/dave@example.com/bypass-codes';
    const posts = standin.requestsTo('POST', /\/bypass_codes$/).length;
    standin.failNext({ times: 1, status: 500, method: 'POST', path: /\/bypass_codes$/, afterEffect: true });
    const res = await callAs(m, HELPDESK, 'POST', url, { count: 2, validitySeconds: 600, ...JUSTIFY });
    expect(res.statusCode, res.body).toBe(503);
    expect(errorOf(res)).toMatchObject({ code: 'mfa.provider_unavailable', details: { provider: 'duo', providerStatus: 500 } });
    expect(standin.requestsTo('POST', /\/bypass_codes$/)).toHaveLength(posts + 1);
    // Duo made the two codes before its answer was lost: a retry would have made two more.
    expect(standin.liveBypassCodes(standin.user('dave@example.com').user_id)).toHaveLength(2);
    expect(await lastAudit('admin.user.create_bypass_codes')).toMatchObject({
      target_upn: 'dave@example.com',
      outcome: 'failure',
      reason: 'mfa.provider_unavailable',
    });
  });
});
