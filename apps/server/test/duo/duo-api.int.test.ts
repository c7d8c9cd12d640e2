import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  activityResponseSchema,
  bypassCodesResponseSchema,
  createBypassCodesResponseSchema,
  deviceSchema,
  devicesResponseSchema,
  stepUpStatusSchema,
  testDeviceResponseSchema,
  userInfoResponseSchema,
} from '@mfa-portal/shared';
import { portalIdOf } from '../../src/mfa/duo/ids.js';
import { advance, auditEvents, devicesOf, errorOf, meTestApp, type MeTestApp } from '../me-api.js';
import type { DuoStandin } from './duo-standin.js';
import { duoEnv, seedDemoStaff, startStandin } from './support.js';

/**
 * Contract suite: the portal's self-service API (/api/me/...) and /account/getuserinfo, unchanged,
 * with MFA_PROVIDER=duo against the Duo stand-in (HTTPS on loopback, its certificate trusted through
 * DUO_CA_FILE). The scenarios follow the builtin provider's API suites where the port allows; where Duo
 * differs (authenticator apps, token names) the test says what the portal answers instead.
 */

let standin: DuoStandin;
let m: MeTestApp;
let seed: ReturnType<typeof seedDemoStaff>;
const BOB = 'bob@example.com';
const ALICE = 'alice@example.com';

async function stepUpWithToken(upn: string, serial: string) {
  const [code] = standin.tokenCodes(serial, 1);
  const res = await m.call(upn, 'POST', '/step-up', { method: 'passcode', code });
  expect(res.statusCode).toBe(200);
}

/** Expects a refusal with `status`/`code` that leaves Duo's state as it was. */
async function refusedWithoutChange(
  run: () => Promise<{ statusCode: number; json(): unknown }>,
  status: number,
  code: string,
  field?: string,
) {
  const before = standin.snapshot();
  const res = await run();
  expect(res.statusCode).toBe(status);
  const body = errorOf(res);
  expect(body.code).toBe(code);
  if (field !== undefined) expect(body.details?.field).toBe(field);
  expect(standin.snapshot()).toBe(before);
  return body;
}

function userInfo(upn: string) {
  return m
    .token(upn)
    .then((token) =>
      m.t.app.inject({ url: `/account/getuserinfo?userid=${encodeURIComponent(upn)}`, headers: { authorization: `Bearer ${token}` } }),
    );
}

beforeAll(async () => {
  standin = await startStandin({ maxLimit: 2, lockoutThreshold: 3 });
  seed = seedDemoStaff(standin);
  standin.addUser({ username: 'carol@example.com' });
  standin.addUser({ username: 'locky@example.com' });
  m = await meTestApp(duoEnv(standin, { MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '10000' }));
  // The stand-in's certificate was made with the real clock; from here the clock only moves forward.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date());
});
afterAll(async () => {
  vi.useRealTimers();
  await m.close();
  await standin.close();
});

describe('GET /account/getuserinfo on Duo', () => {
  it('answers the user’s MFA data read from Duo', async () => {
    const res = await userInfo(BOB);
    expect(res.statusCode).toBe(200);
    const { mfa } = userInfoResponseSchema.parse(res.json());
    expect(mfa).toMatchObject({ provider: 'duo', status: 'active', statusReason: null, bypassCodes: { active: 0, nextExpiresAt: null } });
    expect(mfa.devices.map((d) => [d.kind, d.name, d.capabilities])).toEqual([
      ['phone', 'iPhone 15', ['push', 'passcode']],
      ['hardware_token', 'Duo D100 (D100-0001)', ['passcode']],
    ]);
    expect(standin.requests.some((r) => r.path === '/admin/v1/users' && r.params.username === BOB && r.signatureVersion === 2)).toBe(true);
  });

  it('reports disabled, locked out (with Duo’s reason) and not provisioned users for the error pages', async () => {
    expect(userInfoResponseSchema.parse((await userInfo('disabled@example.com')).json()).mfa).toMatchObject({ status: 'disabled' });
    expect(userInfoResponseSchema.parse((await userInfo('nomfa@example.com')).json()).mfa).toMatchObject({
      status: 'not_provisioned',
      devices: [],
    });
    standin.addUser({ username: 'frozen@example.com', status: 'locked out', lockoutReason: 'Reported fraud' });
    expect(userInfoResponseSchema.parse((await userInfo('frozen@example.com')).json()).mfa).toMatchObject({
      status: 'locked_out',
      statusReason: 'Reported fraud',
    });
  });
});

describe('GET /api/me/devices on Duo', () => {
  it('lists my phones and tokens (every page), no-store', async () => {
    const res = await m.call(BOB, 'GET', '/devices');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(devicesResponseSchema.parse(res.json()).devices.map((d) => d.id)).toEqual([
      portalIdOf('phone', seed.bobPhone.phone_id),
      portalIdOf('token', seed.bobToken.token_id),
    ]);
  });

  it('404 mfa.user_not_provisioned, 403 mfa.user_disabled, 401 without a token', async () => {
    expect(errorOf(await m.call('nomfa@example.com', 'GET', '/devices')).code).toBe('mfa.user_not_provisioned');
    const disabled = await m.call('disabled@example.com', 'GET', '/devices');
    expect(disabled.statusCode).toBe(403);
    expect(errorOf(disabled).code).toBe('mfa.user_disabled');
    expect((await m.t.app.inject({ url: '/api/me/devices' })).statusCode).toBe(401);
  });
});

describe('POST /api/me/devices/authenticator on Duo', () => {
  it('409 mfa.not_supported_by_provider (Duo enrols Duo Mobile, not third-party apps), audited', async () => {
    const body = await refusedWithoutChange(() => m.call(ALICE, 'POST', '/devices/authenticator'), 409, 'mfa.not_supported_by_provider');
    expect(body.details?.reason).toMatch(/Duo Mobile/);
    expect((await auditEvents(m.db, 'device.enrol_start')).at(-1)).toMatchObject({
      outcome: 'failure',
      reason: 'mfa.not_supported_by_provider',
    });
  });
});

describe('POST /api/me/devices/hardware-token on Duo', () => {
  it.each([
    ['a serial with spaces', { serial: 'D100 0003', codes: ['123456', '123457'] }, 'serial'],
    ['one code', { serial: 'D100-0003', codes: ['123456'] }, 'codes'],
    ['a malformed code', { serial: 'D100-0003', codes: ['123456', '12345x'] }, 'codes.1'],
  ])('400 naming the field for %s, Duo not asked', async (_label, payload, field) => {
    const before = standin.requests.length;
    await refusedWithoutChange(
      () => m.call('carol@example.com', 'POST', '/devices/hardware-token', payload),
      400,
      'request.invalid',
      field,
    );
    expect(standin.requests.length).toBe(before);
  });

  it('404 token.not_found for a serial Duo does not know', async () => {
    await refusedWithoutChange(
      () => m.call('carol@example.com', 'POST', '/devices/hardware-token', { serial: 'D100-9999', codes: ['123456', '123457'] }),
      404,
      'token.not_found',
    );
  });

  it('422 mfa.code_invalid for codes that are not the token’s, and the token stays free', async () => {
    const res = await m.call('carol@example.com', 'POST', '/devices/hardware-token', { serial: 'D100-0003', codes: ['000000', '000001'] });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatchObject({ code: 'mfa.code_invalid', details: { field: 'codes' } });
    expect(standin.token('D100-0003').userIds).toEqual([]);
    standin.user('carol@example.com').failedAttempts = 0;
  });

  it('201: claims the token with two codes; it is hers at Duo', async () => {
    const res = await m.call('carol@example.com', 'POST', '/devices/hardware-token', {
      serial: 'D100-0003',
      codes: standin.tokenCodes('D100-0003', 2),
      name: 'My D100',
    });
    expect(res.statusCode).toBe(201);
    expect(deviceSchema.parse(res.json())).toMatchObject({ kind: 'hardware_token', serial: 'D100-0003', tokenType: 'Duo D100' });
    expect(standin.token('D100-0003').userIds).toEqual([standin.user('carol@example.com').user_id]);
    expect((await auditEvents(m.db, 'device.claim_token')).at(-1)).toMatchObject({ outcome: 'success' });
  });

  it('409 token.not_available for a token someone has; 403 auth.step_up_required when a device exists', async () => {
    await refusedWithoutChange(
      () => m.call(ALICE, 'POST', '/devices/hardware-token', { serial: 'D100-0003', codes: standin.tokenCodes('D100-0003', 2) }),
      409,
      'token.not_available',
    );
    await refusedWithoutChange(
      () =>
        m.call('carol@example.com', 'POST', '/devices/hardware-token', { serial: 'D100-0004', codes: standin.tokenCodes('D100-0004', 2) }),
      403,
      'auth.step_up_required',
    );
  });
});

describe('POST /api/me/devices/:id/resync on Duo', () => {
  it('200 with three consecutive codes far ahead; 422 for wrong ones; 404 for another’s; 409 for a phone', async () => {
    const token = (await devicesOf(m, 'carol@example.com')).find((d) => d.kind === 'hardware_token')!;
    const ok = await m.call('carol@example.com', 'POST', `/devices/${token.id}/resync`, { codes: standin.tokenCodes('D100-0003', 3, 300) });
    expect(ok.statusCode).toBe(200);
    expect(deviceSchema.parse(ok.json()).id).toBe(token.id);
    expect(standin.token('D100-0003').counter).toBe(305);
    await refusedWithoutChange(
      () => m.call('carol@example.com', 'POST', `/devices/${token.id}/resync`, { codes: standin.tokenCodes('D100-0003', 3, -5) }),
      422,
      'mfa.code_invalid',
      'codes',
    );
    await refusedWithoutChange(
      () => m.call(BOB, 'POST', `/devices/${token.id}/resync`, { codes: standin.tokenCodes('D100-0003', 3) }),
      404,
      'device.not_found',
    );
    const phone = portalIdOf('phone', seed.bobPhone.phone_id);
    await refusedWithoutChange(
      () => m.call(BOB, 'POST', `/devices/${phone}/resync`, { codes: ['123456', '123457', '123458'] }),
      409,
      'device.not_hardware_token',
    );
  });
});

describe('PATCH /api/me/devices/:id on Duo', () => {
  it('200: renames my phone at Duo; 409 for a token (no name at Duo); 404 for another’s device', async () => {
    const phone = portalIdOf('phone', seed.bobPhone.phone_id);
    const res = await m.call(BOB, 'PATCH', `/devices/${phone}`, { name: 'Work phone' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: phone, name: 'Work phone' });
    expect(standin.phones.get(seed.bobPhone.phone_id)!.name).toBe('Work phone');
    await refusedWithoutChange(
      () => m.call(BOB, 'PATCH', `/devices/${portalIdOf('token', seed.bobToken.token_id)}`, { name: 'x' }),
      409,
      'mfa.not_supported_by_provider',
    );
    await refusedWithoutChange(() => m.call(ALICE, 'PATCH', `/devices/${phone}`, { name: 'Taken' }), 404, 'device.not_found');
  });
});

describe('POST /api/me/devices/:id/test on Duo', () => {
  it('200 for a current code of that token, audited; 422 for the same code again', async () => {
    const token = portalIdOf('token', seed.bobToken.token_id);
    const [code] = standin.tokenCodes('D100-0001', 1);
    const res = await m.call(BOB, 'POST', `/devices/${token}/test`, { code });
    expect(res.statusCode).toBe(200);
    expect(testDeviceResponseSchema.parse(res.json()).device.id).toBe(token);
    expect((await auditEvents(m.db, 'mfa.verify')).at(-1)).toMatchObject({
      outcome: 'success',
      details: { purpose: 'device_test', method: 'hotp', deviceId: token },
    });
    const again = await m.call(BOB, 'POST', `/devices/${token}/test`, { code });
    expect(again.statusCode).toBe(422);
    expect(errorOf(again).code).toBe('mfa.code_invalid');
  });

  it('200 for a Duo Mobile passcode of an activated phone; 409 for a phone without Duo Mobile', async () => {
    const phone = portalIdOf('phone', seed.bobPhone.phone_id);
    const [code] = standin.phoneCodes(seed.bobPhone.phone_id, 1);
    expect((await m.call(BOB, 'POST', `/devices/${phone}/test`, { code })).statusCode).toBe(200);
    const plain = standin.addPhone({ userId: standin.user('carol@example.com').user_id, number: '+15555550144' });
    const res = await m.call('carol@example.com', 'POST', `/devices/${portalIdOf('phone', plain.phone_id)}/test`, { code: '123456' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('device.verification_unsupported');
  });

  it('404 device.not_found for another user’s device', async () => {
    await refusedWithoutChange(
      () => m.call(ALICE, 'POST', `/devices/${portalIdOf('token', seed.bobToken.token_id)}/test`, { code: '123456' }),
      404,
      'device.not_found',
    );
  });
});

describe('POST /api/me/step-up on Duo', () => {
  it('200 with a token code, checked by the Auth API (preauth, then auth with factor=passcode)', async () => {
    const [code] = standin.tokenCodes('D100-0001', 1);
    const res = await m.call(BOB, 'POST', '/step-up', { method: 'passcode', code });
    expect(res.statusCode).toBe(200);
    expect(stepUpStatusSchema.parse(res.json())).toMatchObject({ active: true, method: 'passcode' });
    const auth = standin.requests.filter((r) => r.api === 'auth').slice(-2);
    expect(auth.map((r) => [r.path, r.params.factor ?? null, r.params.user_id])).toEqual([
      ['/auth/v2/preauth', null, seed.bob.user_id],
      ['/auth/v2/auth', 'passcode', seed.bob.user_id],
    ]);
  });

  it('409 mfa.no_factor for a user with nothing that gives a passcode; 404 / 403 for unprovisioned / disabled', async () => {
    expect(errorOf(await m.call(ALICE, 'POST', '/step-up', { method: 'passcode', code: '123456' })).code).toBe('mfa.no_factor');
    expect(errorOf(await m.call('nomfa@example.com', 'POST', '/step-up', { method: 'passcode', code: '123456' })).code).toBe(
      'mfa.user_not_provisioned',
    );
    expect(errorOf(await m.call('disabled@example.com', 'POST', '/step-up', { method: 'passcode', code: '123456' })).code).toBe(
      'mfa.user_disabled',
    );
  });

  it('409 mfa.no_factor for a user in Duo’s bypass status (Duo would accept any code), audited, Duo’s auth not called', async () => {
    const bypassed = standin.addUser({ username: 'bypassed@example.com', status: 'bypass' });
    standin.addToken({ serial: 'BYPASSED-1', userId: bypassed.user_id });
    const before = standin.requests.length;
    const res = await m.call('bypassed@example.com', 'POST', '/step-up', { method: 'passcode', code: '123456' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('mfa.no_factor');
    expect((await auditEvents(m.db, 'mfa.verify')).at(-1)).toMatchObject({
      target_upn: 'bypassed@example.com',
      outcome: 'failure',
      reason: 'mfa.no_factor',
    });
    expect(standin.requests.slice(before).some((r) => r.path === '/auth/v2/auth')).toBe(false);
  });

  it('locks the user at Duo’s threshold (403, audited as a lockout), visible through getuserinfo', async () => {
    const locky = standin.user('locky@example.com');
    standin.addToken({ serial: 'LOCKY-1', userId: locky.user_id });
    const fail = () => m.call('locky@example.com', 'POST', '/step-up', { method: 'passcode', code: '000000' });
    expect((await fail()).statusCode).toBe(422);
    expect((await fail()).statusCode).toBe(422);
    const third = await fail();
    expect(third.statusCode).toBe(403);
    expect(errorOf(third)).toMatchObject({ code: 'mfa.user_locked_out', details: { reason: 'Failed Attempts' } });
    expect((await auditEvents(m.db, 'mfa.lockout')).at(-1)).toMatchObject({ target_upn: 'locky@example.com' });
    expect(userInfoResponseSchema.parse((await userInfo('locky@example.com')).json()).mfa).toMatchObject({
      status: 'locked_out',
      statusReason: 'Failed Attempts',
    });
    // The lockout ended the account's sessions: a token issued up to it is refused; a newer one sees the lockout.
    expect((await m.call('locky@example.com', 'GET', '/devices')).statusCode).toBe(401);
    advance(1);
    const devices = await m.call('locky@example.com', 'GET', '/devices');
    expect(devices.statusCode).toBe(403);
  });
});

describe('DELETE /api/me/devices/:id on Duo', () => {
  it('403 auth.step_up_required without a recent step-up', async () => {
    advance(301);
    await refusedWithoutChange(
      () => m.call(BOB, 'DELETE', `/devices/${portalIdOf('phone', seed.bobPhone.phone_id)}`),
      403,
      'auth.step_up_required',
    );
  });

  it('204: deletes my phone at Duo after a step-up; 404 for another’s device', async () => {
    await stepUpWithToken(BOB, 'D100-0001');
    await refusedWithoutChange(
      () => m.call(BOB, 'DELETE', `/devices/${portalIdOf('token', standin.token('D100-0003').token_id)}?confirmLastDevice=true`),
      404,
      'device.not_found',
    );
    const res = await m.call(BOB, 'DELETE', `/devices/${portalIdOf('phone', seed.bobPhone.phone_id)}`);
    expect(res.statusCode).toBe(204);
    expect(standin.phones.has(seed.bobPhone.phone_id)).toBe(false);
    expect((await auditEvents(m.db, 'device.delete')).at(-1)).toMatchObject({ outcome: 'success', details: { kind: 'phone' } });
  });

  it('409 for the last device, 204 with confirmLastDevice=true: the token returns to the inventory', async () => {
    const token = portalIdOf('token', seed.bobToken.token_id);
    await refusedWithoutChange(() => m.call(BOB, 'DELETE', `/devices/${token}`), 409, 'device.last_device_confirmation_required');
    const res = await m.call(BOB, 'DELETE', `/devices/${token}?confirmLastDevice=true`);
    expect(res.statusCode).toBe(204);
    expect(standin.token('D100-0001').userIds).toEqual([]);
    expect(await devicesOf(m, BOB)).toEqual([]);
  });

  it('lets a user with no device claim the first one again without step-up', async () => {
    advance(301);
    const res = await m.call(BOB, 'POST', '/devices/hardware-token', { serial: 'D100-0001', codes: standin.tokenCodes('D100-0001', 2) });
    expect(res.statusCode).toBe(201);
  });
});

describe('/api/me/bypass-codes on Duo', () => {
  it('403 without a recent step-up; 201 after: codes shown once, sent to Duo with preserve_existing', async () => {
    await refusedWithoutChange(
      () => m.call(BOB, 'POST', '/bypass-codes', { count: 2, validitySeconds: 3600 }),
      403,
      'auth.step_up_required',
    );
    await stepUpWithToken(BOB, 'D100-0001');
    const res = await m.call(BOB, 'POST', '/bypass-codes', { count: 2, validitySeconds: 3600 });
    expect(res.statusCode).toBe(201);
    const created = createBypassCodesResponseSchema.parse(res.json());
    expect(created.codes).toHaveLength(2);
    expect(created.replaced).toBe(0);
    expect(standin.requestsTo('POST', /\/bypass_codes$/).at(-1)!.params).toEqual({
      count: '2',
      valid_secs: '3600',
      reuse_count: '1',
      preserve_existing: 'true',
    });
    const listed = bypassCodesResponseSchema.parse((await m.call(BOB, 'GET', '/bypass-codes')).json()).codes;
    expect(listed.map((c) => c.id).sort()).toEqual(created.codes.map((c) => c.id).sort());
    expect(JSON.stringify(await auditEvents(m.db, 'bypass.create'))).not.toContain(created.codes[0]!.code.replace(/ /g, ''));
  });

  it('a bypass code passes step-up once', async () => {
    const res = await m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 600 });
    const { code } = createBypassCodesResponseSchema.parse(res.json()).codes[0]!;
    expect((await m.call(BOB, 'POST', '/step-up', { method: 'bypass', code })).statusCode).toBe(200);
    const again = await m.call(BOB, 'POST', '/step-up', { method: 'bypass', code });
    expect(again.statusCode).toBe(422);
  });

  it('replaceExisting: preserve_existing=false and the codes replaced counted', async () => {
    const live = bypassCodesResponseSchema.parse((await m.call(BOB, 'GET', '/bypass-codes')).json()).codes.length;
    const res = await m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 600, replaceExisting: true });
    expect(createBypassCodesResponseSchema.parse(res.json()).replaced).toBe(live);
    expect(standin.requestsTo('POST', /\/bypass_codes$/).at(-1)!.params.preserve_existing).toBe('false');
  });

  it('400 for a validity of 0 or over 7 days (never sent to Duo)', async () => {
    const before = standin.requests.length;
    await refusedWithoutChange(
      () => m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 0 }),
      400,
      'request.invalid',
      'validitySeconds',
    );
    await refusedWithoutChange(
      () => m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 604_801 }),
      400,
      'request.invalid',
      'validitySeconds',
    );
    expect(standin.requests.slice(before).some((r) => r.path.endsWith('/bypass_codes'))).toBe(false);
  });

  it('DELETE revokes my code at Duo; another user’s id is not found', async () => {
    const [code] = bypassCodesResponseSchema.parse((await m.call(BOB, 'GET', '/bypass-codes')).json()).codes;
    await refusedWithoutChange(() => m.call(ALICE, 'DELETE', `/bypass-codes/${code!.id}`), 404, 'bypass.not_found');
    const res = await m.call(BOB, 'DELETE', `/bypass-codes/${code!.id}`);
    expect(res.statusCode).toBe(200);
    expect(bypassCodesResponseSchema.parse((await m.call(BOB, 'GET', '/bypass-codes')).json()).codes).toEqual([]);
  });

  it('a code made in Duo’s Admin Panel with no limit of uses lists as unlimited (usesLeft null)', async () => {
    const made = standin.addBypassCode(seed.bob.user_id, { code: '424242424', expiration: null, reuseCount: 0 });
    const res = await m.call(BOB, 'GET', '/bypass-codes');
    expect(res.statusCode, res.body).toBe(200);
    const codes = bypassCodesResponseSchema.parse(res.json()).codes;
    expect(codes).toEqual([expect.objectContaining({ usesLeft: null, reuseCount: null })]);
    standin.bypassCodes.delete(made.bypass_code_id);
  });
});

describe('the rest of /api/me on Duo', () => {
  it('POST /devices/authenticator/:id/confirm: 409 mfa.not_supported_by_provider, nothing at Duo', async () => {
    const before = standin.requests.length;
    await refusedWithoutChange(
      () => m.call(ALICE, 'POST', '/devices/authenticator/00000000-0000-4000-8000-000000000000/confirm', { code: '123456', name: 'App' }),
      409,
      'mfa.not_supported_by_provider',
    );
    // Only reads (the account) reached Duo.
    expect(standin.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
  });

  it('GET /step-up: inactive, then active after a token code', async () => {
    advance(301);
    expect(stepUpStatusSchema.parse((await m.call(BOB, 'GET', '/step-up')).json())).toMatchObject({ active: false });
    await stepUpWithToken(BOB, 'D100-0001');
    expect(stepUpStatusSchema.parse((await m.call(BOB, 'GET', '/step-up')).json())).toMatchObject({ active: true, method: 'passcode' });
  });

  it('bypass codes: count 11 and reuseCount 0 refused (never sent); reuseCount 3 sent as reuse_count=3 with preserve_existing', async () => {
    const before = standin.requestsTo('POST', /\/bypass_codes$/).length;
    await refusedWithoutChange(
      () => m.call(BOB, 'POST', '/bypass-codes', { count: 11, validitySeconds: 600 }),
      400,
      'request.invalid',
      'count',
    );
    await refusedWithoutChange(
      () => m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 600, reuseCount: 0 }),
      400,
      'request.invalid',
      'reuseCount',
    );
    expect(standin.requestsTo('POST', /\/bypass_codes$/)).toHaveLength(before);
    const res = await m.call(BOB, 'POST', '/bypass-codes', { count: 10, validitySeconds: 604_800, reuseCount: 3 });
    expect(res.statusCode, res.body).toBe(201);
    expect(createBypassCodesResponseSchema.parse(res.json()).codes).toHaveLength(10);
    expect(standin.requestsTo('POST', /\/bypass_codes$/).at(-1)!.params).toEqual({
      count: '10',
      valid_secs: '604800',
      reuse_count: '3',
      preserve_existing: 'true',
    });
    const listed = bypassCodesResponseSchema.parse((await m.call(BOB, 'GET', '/bypass-codes')).json()).codes;
    expect(listed.filter((c) => c.usesLeft === 3)).toHaveLength(10);
  });

  it('GET /activity: my entries on Duo-backed actions, newest first, paged', async () => {
    const res = await m.call(BOB, 'GET', '/activity?limit=3');
    expect(res.statusCode).toBe(200);
    const page = activityResponseSchema.parse(res.json());
    expect(page.entries).toHaveLength(3);
    expect(page.entries[0]).toMatchObject({ story: 'bypass_created', outcome: 'success', actor: 'you', targetUpn: null });
    expect(page.nextCursor).not.toBeNull();
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const next = activityResponseSchema.parse(
        (await m.call(BOB, 'GET', `/activity?limit=50${cursor ? `&cursor=${cursor}` : ''}`)).json(),
      );
      all.push(...next.entries.flatMap((e) => e.steps.map((s) => s.step)));
      cursor = next.nextCursor;
    } while (cursor);
    for (const step of ['device_renamed', 'device_removed', 'token_added', 'device_checked', 'step_up', 'bypass_created', 'bypass_revoked'])
      expect(all).toContain(step);
    const bad = await m.call(BOB, 'GET', '/activity?limit=0');
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).details?.field).toBe('limit');
  });
});

describe('Duo rate limits and outages through the API', () => {
  it('429 twice: the portal backs off and answers 200', async () => {
    standin.failNext({ times: 2, status: 429, method: 'GET', path: /\/phones$/ });
    expect((await m.call(BOB, 'GET', '/devices')).statusCode).toBe(200);
  });

  it('429 past the retry budget: 503 mfa.provider_rate_limited with Retry-After', async () => {
    standin.failNext({ times: 50, status: 429, method: 'GET', path: /^\/admin\/v1\/users$/, retryAfter: '1' });
    const res = await m.call(BOB, 'GET', '/devices');
    standin.clearFaults();
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(errorOf(res)).toMatchObject({
      code: 'mfa.provider_rate_limited',
      details: { provider: 'duo', providerStatus: 429, providerCode: 42901 },
    });
  });

  it('5xx: a read is retried (200); a bypass-code POST is not (503, Duo asked once, audited)', async () => {
    standin.failNext({ times: 1, status: 500, method: 'GET', path: /\/tokens$/ });
    expect((await m.call(BOB, 'GET', '/devices')).statusCode).toBe(200);
    await stepUpWithToken(BOB, 'D100-0001');
    const posts = standin.requestsTo('POST', /\/bypass_codes$/).length;
    standin.failNext({ times: 1, status: 503, method: 'POST', path: /\/bypass_codes$/ });
    const res = await m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 600 });
    expect(res.statusCode).toBe(503);
    expect(errorOf(res).code).toBe('mfa.provider_unavailable');
    expect(standin.requestsTo('POST', /\/bypass_codes$/)).toHaveLength(posts + 1);
    expect((await auditEvents(m.db, 'bypass.create')).at(-1)).toMatchObject({ outcome: 'failure', reason: 'mfa.provider_unavailable' });
  });
});

describe('the same API with signature v5 (JSON bodies) and with wrong keys', () => {
  it('DUO_SIGNATURE_VERSION=5: reads and changes work, signed v5', async () => {
    const v5 = await meTestApp(duoEnv(standin, { DUO_SIGNATURE_VERSION: '5' }));
    try {
      const before = standin.requests.length;
      expect((await v5.call('helpdesk@example.com', 'GET', '/devices')).statusCode).toBe(200);
      // The account, then the user, phones, tokens and WebAuthn credentials: five GETs, all signed v5.
      expect(standin.requests.slice(before).map((r) => r.signatureVersion)).toEqual([5, 5, 5, 5, 5]);
      const phone = (await devicesOf(m, 'helpdesk@example.com'))[0]!;
      expect((await v5.call('helpdesk@example.com', 'PATCH', `/devices/${phone.id}`, { name: 'Pixel (work)' })).statusCode).toBe(200);
      const last = standin.requests.at(-1)!;
      expect(last).toMatchObject({
        method: 'POST',
        signatureVersion: 5,
        contentType: 'application/json',
        params: { name: 'Pixel (work)' },
      });
    } finally {
      await v5.close();
    }
  });

  it('a wrong secret key: 502 mfa.provider_rejected with Duo’s code, never the key', async () => {
    const wrong = await meTestApp(duoEnv(standin, { DUO_ADMIN_SECRET_KEY: 'z'.repeat(40) }));
    try {
      const res = await wrong.call(BOB, 'GET', '/devices');
      expect(res.statusCode).toBe(502);
      expect(errorOf(res)).toMatchObject({ code: 'mfa.provider_rejected', details: { providerStatus: 401, providerCode: 40103 } });
      expect(res.body).not.toContain('z'.repeat(40));
    } finally {
      await wrong.close();
    }
  });
});
