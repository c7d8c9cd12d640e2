import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { deviceSchema, totpEnrolmentResponseSchema, TOTP_ENROLMENT_TTL_SECONDS, type Device } from '@mfa-portal/shared';
import {
  addUser,
  advance,
  auditEvents,
  demoTokenCodes,
  devicesOf,
  errorOf,
  meTestApp,
  type MeTestApp,
  mfaSnapshot,
  totpAt,
} from '../../../test/me-api.js';
import { addPhoneRecord } from '../../../test/admin-api.js';
import { demoAuthenticatorSecret } from '../../demo/demo-authenticators.js';

/**
 * /api/me/devices...: enrolment of authenticator apps, claiming and resynchronising hardware tokens,
 * renaming, testing and deleting devices. Time is a fake Date moved by hand (TOTP steps, expiries).
 */

let m: MeTestApp;

async function stepUpWithToken(upn: string, serial: string) {
  const [code] = await demoTokenCodes(m.db, serial, 1);
  const res = await m.call(upn, 'POST', '/step-up', { method: 'passcode', code });
  expect(res.statusCode).toBe(200);
}

/** Starts and confirms an authenticator app for `upn`; returns the device and its secret. */
async function enrolAuthenticator(upn: string, name = 'Authenticator'): Promise<{ device: Device; secret: string }> {
  const start = await m.call(upn, 'POST', '/devices/authenticator');
  expect(start.statusCode).toBe(201);
  const { enrolmentId, secret } = start.json();
  const res = await m.call(upn, 'POST', `/devices/authenticator/${enrolmentId}/confirm`, { code: totpAt(secret), name });
  expect(res.statusCode).toBe(201);
  return { device: deviceSchema.parse(res.json()), secret };
}

/** Expects `run` to be refused with `status`/`code` and to leave the MFA tables unchanged. */
async function refusedWithoutChange(
  run: () => Promise<{ statusCode: number; json(): unknown }>,
  status: number,
  code: string,
  field?: string,
) {
  const before = await mfaSnapshot(m.db);
  const res = await run();
  expect(res.statusCode).toBe(status);
  const body = errorOf(res);
  expect(body.code).toBe(code);
  if (field !== undefined) expect(body.details?.field).toBe(field);
  expect(await mfaSnapshot(m.db)).toBe(before);
  return body;
}

beforeAll(async () => {
  m = await meTestApp();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2030-03-01T10:00:05.000Z'));
  await addUser(m.db, 'carla@example.com');
  await addUser(m.db, 'davina@example.com');
  await addUser(m.db, 'erwin@example.com');
});
afterAll(async () => {
  vi.useRealTimers();
  await m.close();
});

describe('GET /api/me/devices', () => {
  it('lists my devices', async () => {
    const devices = await devicesOf(m, 'bob@example.com');
    expect(devices.map((d) => [d.kind, d.name])).toEqual([
      ['authenticator', 'iPhone 15'],
      ['hardware_token', 'Duo D100 token'],
    ]);
  });

  it('answers no-store', async () => {
    expect((await m.call('bob@example.com', 'GET', '/devices')).headers['cache-control']).toBe('no-store');
  });

  it('404 mfa.user_not_provisioned for a user unknown to the MFA provider', async () => {
    const res = await m.call('nomfa@example.com', 'GET', '/devices');
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe('mfa.user_not_provisioned');
  });

  it('403 mfa.user_disabled with the reason for a disabled user', async () => {
    const res = await m.call('disabled@example.com', 'GET', '/devices');
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatchObject({ code: 'mfa.user_disabled', details: { reason: 'Disabled by the security team' } });
  });

  it('401 without a token', async () => {
    const res = await m.t.app.inject({ url: '/api/me/devices' });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('auth.token_missing');
  });
});

describe('POST /api/me/devices/authenticator and .../:enrolmentId/confirm', () => {
  let enrolment: { enrolmentId: string; secret: string; otpauthUri: string; qrSvg: string; expiresAt: string };

  it('starts the first device without step-up: secret, otpauth URI and QR code, nothing counted yet', async () => {
    const res = await m.call('alice@example.com', 'POST', '/devices/authenticator');
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    enrolment = totpEnrolmentResponseSchema.parse(res.json());
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(decodeURIComponent(enrolment.otpauthUri)).toBe(
      `otpauth://totp/MFA Portal:alice@example.com?secret=${enrolment.secret}&issuer=MFA Portal&algorithm=SHA1&digits=6&period=30`,
    );
    expect(enrolment.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(enrolment.expiresAt).toBe(new Date(Date.now() + TOTP_ENROLMENT_TTL_SECONDS * 1000).toISOString());
    expect(await devicesOf(m, 'alice@example.com')).toEqual([]);
    const [row] = await m.db.selectFrom('mfa_totp_enrolment').selectAll().where('id', '=', enrolment.enrolmentId).execute();
    expect(row?.secret_sealed).not.toContain(enrolment.secret);
  });

  it.each([
    ['a 5-digit code', { code: '12345', name: 'Phone' }, 'code'],
    ['letters in the code', { code: '12345a', name: 'Phone' }, 'code'],
    ['no code', { name: 'Phone' }, 'code'],
    ['an empty name', { code: '123456', name: '   ' }, 'name'],
    ['a name of 65 characters', { code: '123456', name: 'x'.repeat(65) }, 'name'],
    ['a control character in the name', { code: '123456', name: 'Phone\u0007' }, 'name'],
    ['a number as name', { code: '123456', name: 42 }, 'name'],
  ])('400 naming the field for %s, nothing changed', async (_label, payload, field) => {
    await refusedWithoutChange(
      () => m.call('alice@example.com', 'POST', `/devices/authenticator/${enrolment.enrolmentId}/confirm`, payload),
      400,
      'request.invalid',
      field,
    );
  });

  it('400 naming the enrolment id when it is not an id, and for a body that is not JSON', async () => {
    await refusedWithoutChange(
      () => m.call('alice@example.com', 'POST', '/devices/authenticator/not-an-id/confirm', { code: '123456', name: 'x' }),
      400,
      'request.invalid',
      'enrolmentId',
    );
    await refusedWithoutChange(
      () => m.call('alice@example.com', 'POST', `/devices/authenticator/${enrolment.enrolmentId}/confirm`, '{"code":'),
      400,
      'request.invalid',
      'body',
    );
  });

  it('422 mfa.code_invalid for a wrong code, and the device does not count', async () => {
    const wrong = totpAt(enrolment.secret, new Date(Date.now() - 3600_000));
    await refusedWithoutChange(
      () => m.call('alice@example.com', 'POST', `/devices/authenticator/${enrolment.enrolmentId}/confirm`, { code: wrong, name: 'Phone' }),
      422,
      'mfa.code_invalid',
      'code',
    );
    const [event] = (await auditEvents(m.db, 'device.enrol_confirm')).slice(-1);
    expect(event).toMatchObject({ outcome: 'failure', reason: 'mfa.code_invalid', target_upn: 'alice@example.com' });
    expect(JSON.stringify(event)).not.toContain(wrong);
  });

  it('404 enrolment.not_found for another user’s enrolment, nothing changed', async () => {
    await refusedWithoutChange(
      () =>
        m.call('carla@example.com', 'POST', `/devices/authenticator/${enrolment.enrolmentId}/confirm`, {
          code: totpAt(enrolment.secret),
          name: 'Mine',
        }),
      404,
      'enrolment.not_found',
    );
  });

  it('201 with the first valid code: the device is listed, and audited', async () => {
    const res = await m.call('alice@example.com', 'POST', `/devices/authenticator/${enrolment.enrolmentId}/confirm`, {
      code: totpAt(enrolment.secret),
      name: '  Pixel  ',
    });
    expect(res.statusCode).toBe(201);
    const device = deviceSchema.parse(res.json());
    expect(device).toMatchObject({ kind: 'authenticator', name: 'Pixel', capabilities: ['passcode'], serial: null });
    expect((await devicesOf(m, 'alice@example.com')).map((d) => d.id)).toEqual([device.id]);
    const [event] = (await auditEvents(m.db, 'device.enrol_confirm')).slice(-1);
    expect(event).toMatchObject({
      outcome: 'success',
      actor_upn: 'alice@example.com',
      details: { deviceId: device.id, kind: 'authenticator' },
    });
    expect(JSON.stringify(await auditEvents(m.db))).not.toContain(enrolment.secret);
  });

  it('403 auth.step_up_required to add a device when one exists; 201 after a step-up', async () => {
    const body = await refusedWithoutChange(
      () => m.call('bob@example.com', 'POST', '/devices/authenticator'),
      403,
      'auth.step_up_required',
    );
    expect(body.details).toEqual({ maxAgeSeconds: 300 });
    await stepUpWithToken('bob@example.com', 'D100-0001');
    const { device } = await enrolAuthenticator('bob@example.com', 'Second app');
    expect((await devicesOf(m, 'bob@example.com')).map((d) => d.id)).toContain(device.id);
  });

  it('410 enrolment.expired once the enrolment lifetime has passed', async () => {
    const start = await m.call('carla@example.com', 'POST', '/devices/authenticator');
    const { enrolmentId, secret } = start.json();
    advance(TOTP_ENROLMENT_TTL_SECONDS + 1);
    await refusedWithoutChange(
      () => m.call('carla@example.com', 'POST', `/devices/authenticator/${enrolmentId}/confirm`, { code: totpAt(secret), name: 'Late' }),
      410,
      'enrolment.expired',
    );
  });
});

describe('POST /api/me/devices/hardware-token', () => {
  it.each([
    ['a serial with spaces', { serial: 'D100 0003', codes: ['123456', '123457'] }, 'serial'],
    ['an empty serial', { serial: '', codes: ['123456', '123457'] }, 'serial'],
    ['one code', { serial: 'D100-0003', codes: ['123456'] }, 'codes'],
    ['three codes', { serial: 'D100-0003', codes: ['123456', '123457', '123458'] }, 'codes'],
    ['a malformed code', { serial: 'D100-0003', codes: ['123456', '12345x'] }, 'codes.1'],
    ['codes that are not a list', { serial: 'D100-0003', codes: '123456,123457' }, 'codes'],
  ])('400 naming the field for %s, nothing changed', async (_label, payload, field) => {
    await refusedWithoutChange(
      () => m.call('carla@example.com', 'POST', '/devices/hardware-token', payload),
      400,
      'request.invalid',
      field,
    );
  });

  it('404 token.not_found for an unknown serial', async () => {
    await refusedWithoutChange(
      () => m.call('carla@example.com', 'POST', '/devices/hardware-token', { serial: 'D100-9999', codes: ['123456', '123457'] }),
      404,
      'token.not_found',
    );
  });

  it('422 mfa.code_invalid for codes that are not two consecutive codes of the token', async () => {
    const [a, , c] = await demoTokenCodes(m.db, 'D100-0003', 3);
    await refusedWithoutChange(
      () => m.call('carla@example.com', 'POST', '/devices/hardware-token', { serial: 'D100-0003', codes: [a, c] }),
      422,
      'mfa.code_invalid',
      'codes',
    );
  });

  it('201: claims the token with two consecutive codes, and it is hers alone', async () => {
    const codes = await demoTokenCodes(m.db, 'D100-0003', 2, 4);
    const res = await m.call('carla@example.com', 'POST', '/devices/hardware-token', { serial: 'd100-0003', codes, name: 'My D100' });
    expect(res.statusCode).toBe(201);
    expect(deviceSchema.parse(res.json())).toMatchObject({
      kind: 'hardware_token',
      name: 'My D100',
      serial: 'D100-0003',
      tokenType: 'Duo D100',
    });
    const token = await m.db.selectFrom('mfa_hardware_token').selectAll().where('serial', '=', 'D100-0003').executeTakeFirstOrThrow();
    expect(token).toMatchObject({ status: 'assigned', counter: 6 });
  });

  it('409 token.not_available for a token claimed by someone else, nothing changed', async () => {
    const codes = await demoTokenCodes(m.db, 'D100-0003', 2);
    await refusedWithoutChange(
      () => m.call('davina@example.com', 'POST', '/devices/hardware-token', { serial: 'D100-0003', codes }),
      409,
      'token.not_available',
    );
  });

  it('403 auth.step_up_required when a device exists already', async () => {
    const codes = await demoTokenCodes(m.db, 'D100-0002', 2);
    await refusedWithoutChange(
      () => m.call('carla@example.com', 'POST', '/devices/hardware-token', { serial: 'D100-0002', codes }),
      403,
      'auth.step_up_required',
    );
  });
});

describe('POST /api/me/devices/:id/resync', () => {
  let carolToken: Device;
  beforeAll(async () => {
    carolToken = (await devicesOf(m, 'carla@example.com')).find((d) => d.kind === 'hardware_token')!;
  });

  it('200: resynchronises with three consecutive codes far ahead; earlier codes no longer pass', async () => {
    const codes = await demoTokenCodes(m.db, 'D100-0003', 3, 300);
    const res = await m.call('carla@example.com', 'POST', `/devices/${carolToken.id}/resync`, { codes });
    expect(res.statusCode).toBe(200);
    expect(deviceSchema.parse(res.json()).id).toBe(carolToken.id);
    expect(
      (await m.db.selectFrom('mfa_hardware_token').select('counter').where('serial', '=', 'D100-0003').executeTakeFirstOrThrow()).counter,
    ).toBe(309);
  });

  it('422 for codes behind the counter (it never goes back), nothing changed', async () => {
    const behind = await demoTokenCodes(m.db, 'D100-0003', 3, -5);
    await refusedWithoutChange(
      () => m.call('carla@example.com', 'POST', `/devices/${carolToken.id}/resync`, { codes: behind }),
      422,
      'mfa.code_invalid',
      'codes',
    );
  });

  it('404 device.not_found for another user’s device, nothing changed', async () => {
    const codes = await demoTokenCodes(m.db, 'D100-0003', 3);
    await refusedWithoutChange(
      () => m.call('davina@example.com', 'POST', `/devices/${carolToken.id}/resync`, { codes }),
      404,
      'device.not_found',
    );
  });

  it('409 device.not_hardware_token for a phone', async () => {
    const phone = await addPhoneRecord(m.db, 'bob@example.com');
    await refusedWithoutChange(
      () => m.call('bob@example.com', 'POST', `/devices/${phone}/resync`, { codes: ['123456', '123457', '123458'] }),
      409,
      'device.not_hardware_token',
    );
    await m.db.deleteFrom('mfa_device').where('id', '=', phone).execute();
  });

  it('400 naming the field for two codes or a bad id', async () => {
    await refusedWithoutChange(
      () => m.call('carla@example.com', 'POST', `/devices/${carolToken.id}/resync`, { codes: ['123456', '123457'] }),
      400,
      'request.invalid',
      'codes',
    );
    await refusedWithoutChange(
      () => m.call('carla@example.com', 'POST', '/devices/42/resync', { codes: ['123456', '123457', '123458'] }),
      400,
      'request.invalid',
      'id',
    );
  });
});

describe('PATCH /api/me/devices/:id', () => {
  it('200: renames my device', async () => {
    const [device] = await devicesOf(m, 'alice@example.com');
    const res = await m.call('alice@example.com', 'PATCH', `/devices/${device!.id}`, { name: 'Work phone' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: device!.id, name: 'Work phone' });
    expect((await auditEvents(m.db, 'device.rename')).at(-1)).toMatchObject({
      outcome: 'success',
      details: { deviceId: device!.id, deviceName: 'Work phone' },
    });
  });

  it('404 device.not_found for another user’s device, nothing changed', async () => {
    const [device] = await devicesOf(m, 'alice@example.com');
    await refusedWithoutChange(
      () => m.call('bob@example.com', 'PATCH', `/devices/${device!.id}`, { name: 'Taken' }),
      404,
      'device.not_found',
    );
  });

  it('400 naming the field for a bad name or id, nothing changed', async () => {
    const [device] = await devicesOf(m, 'alice@example.com');
    await refusedWithoutChange(
      () => m.call('alice@example.com', 'PATCH', `/devices/${device!.id}`, { name: '' }),
      400,
      'request.invalid',
      'name',
    );
    await refusedWithoutChange(() => m.call('alice@example.com', 'PATCH', `/devices/${device!.id}`, {}), 400, 'request.invalid', 'name');
    await refusedWithoutChange(() => m.call('alice@example.com', 'PATCH', '/devices/xyz', { name: 'Ok' }), 400, 'request.invalid', 'id');
  });
});

describe('POST /api/me/devices/:id/test', () => {
  it('200 for a current code of that device, audited as a verification', async () => {
    const { device, secret } = await enrolAuthenticator('davina@example.com', 'Tested');
    advance(30);
    const res = await m.call('davina@example.com', 'POST', `/devices/${device.id}/test`, { code: totpAt(secret) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ verified: true, device: { id: device.id } });
    expect((await auditEvents(m.db, 'mfa.verify')).at(-1)).toMatchObject({
      outcome: 'success',
      details: { purpose: 'device_test', method: 'totp', deviceId: device.id },
    });
    // The same code again is a replay.
    const again = await m.call('davina@example.com', 'POST', `/devices/${device.id}/test`, { code: totpAt(secret) });
    expect(again.statusCode).toBe(422);
    expect(errorOf(again).code).toBe('mfa.code_replayed');
  });

  it('422 mfa.code_invalid for a wrong code (audited, counted toward lockout)', async () => {
    const [device] = await devicesOf(m, 'davina@example.com');
    const res = await m.call('davina@example.com', 'POST', `/devices/${device!.id}/test`, { code: '000000' });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatchObject({ code: 'mfa.code_invalid', details: { field: 'code' } });
    expect(
      (await m.db.selectFrom('mfa_user').select('failed_attempts').where('username', '=', 'davina@example.com').executeTakeFirstOrThrow())
        .failed_attempts,
    ).toBeGreaterThan(0);
  });

  it('404 device.not_found for another user’s device, nothing changed', async () => {
    const [device] = await devicesOf(m, 'davina@example.com');
    await refusedWithoutChange(
      () => m.call('erwin@example.com', 'POST', `/devices/${device!.id}/test`, { code: '123456' }),
      404,
      'device.not_found',
    );
  });

  it('409 device.verification_unsupported for a phone record (the builtin provider cannot reach a phone)', async () => {
    const phone = await addPhoneRecord(m.db, 'bob@example.com');
    const listed = (await devicesOf(m, 'bob@example.com')).find((d) => d.id === phone)!;
    // It says so: a phone record offers no way to confirm it is you.
    expect(listed.capabilities).toEqual([]);
    const res = await m.call('bob@example.com', 'POST', `/devices/${phone}/test`, { code: '123456' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('device.verification_unsupported');
    await m.db.deleteFrom('mfa_device').where('id', '=', phone).execute();
  });

  it("checks a code of bob's demo authenticator app (the public demo secret)", async () => {
    const app = (await devicesOf(m, 'bob@example.com')).find((d) => d.name === 'iPhone 15')!;
    expect(app).toMatchObject({ kind: 'authenticator', capabilities: ['passcode'] });
    const code = totpAt(demoAuthenticatorSecret('bob@example.com', 'iPhone 15'));
    const res = await m.call('bob@example.com', 'POST', `/devices/${app.id}/test`, { code });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('400 naming the code when it is not 6 digits', async () => {
    const [device] = await devicesOf(m, 'davina@example.com');
    await refusedWithoutChange(
      () => m.call('davina@example.com', 'POST', `/devices/${device!.id}/test`, { code: '123 456' }),
      400,
      'request.invalid',
      'code',
    );
  });
});

describe('DELETE /api/me/devices/:id', () => {
  it('403 auth.step_up_required without a recent step-up, nothing changed', async () => {
    const [device] = await devicesOf(m, 'bob@example.com');
    advance(301); // bob's step-up above has expired
    await refusedWithoutChange(() => m.call('bob@example.com', 'DELETE', `/devices/${device!.id}`), 403, 'auth.step_up_required');
  });

  it('404 device.not_found for another user’s device even after a step-up, nothing changed', async () => {
    await stepUpWithToken('bob@example.com', 'D100-0001');
    const [device] = await devicesOf(m, 'alice@example.com');
    await refusedWithoutChange(
      () => m.call('bob@example.com', 'DELETE', `/devices/${device!.id}?confirmLastDevice=true`),
      404,
      'device.not_found',
    );
  });

  it('204: deletes one of several devices after a step-up', async () => {
    const phone = (await devicesOf(m, 'bob@example.com')).find((d) => d.kind === 'authenticator')!;
    const res = await m.call('bob@example.com', 'DELETE', `/devices/${phone.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await devicesOf(m, 'bob@example.com')).map((d) => d.id)).not.toContain(phone.id);
    expect((await auditEvents(m.db, 'device.delete')).at(-1)).toMatchObject({
      outcome: 'success',
      details: { deviceId: phone.id, kind: 'authenticator' },
    });
  });

  it('refuses the step-up once it is older than the configured maximum age', async () => {
    const [device] = await devicesOf(m, 'bob@example.com');
    advance(300);
    await refusedWithoutChange(() => m.call('bob@example.com', 'DELETE', `/devices/${device!.id}`), 403, 'auth.step_up_required');
  });

  it('409 device.last_device_confirmation_required for the last device, 204 with confirmLastDevice=true', async () => {
    const [device] = await devicesOf(m, 'carla@example.com');
    expect(await devicesOf(m, 'carla@example.com')).toHaveLength(1);
    const codes = await demoTokenCodes(m.db, 'D100-0003', 1);
    expect((await m.call('carla@example.com', 'POST', '/step-up', { method: 'passcode', code: codes[0] })).statusCode).toBe(200);
    await refusedWithoutChange(
      () => m.call('carla@example.com', 'DELETE', `/devices/${device!.id}`),
      409,
      'device.last_device_confirmation_required',
    );
    await refusedWithoutChange(
      () => m.call('carla@example.com', 'DELETE', `/devices/${device!.id}?confirmLastDevice=false`),
      409,
      'device.last_device_confirmation_required',
    );
    await refusedWithoutChange(
      () => m.call('carla@example.com', 'DELETE', `/devices/${device!.id}?confirmLastDevice=yes`),
      400,
      'request.invalid',
      'confirmLastDevice',
    );
    const res = await m.call('carla@example.com', 'DELETE', `/devices/${device!.id}?confirmLastDevice=true`);
    expect(res.statusCode).toBe(204);
    expect(await devicesOf(m, 'carla@example.com')).toEqual([]);
    // Her token went back to the inventory, its counter kept.
    const token = await m.db.selectFrom('mfa_hardware_token').selectAll().where('serial', '=', 'D100-0003').executeTakeFirstOrThrow();
    expect(token).toMatchObject({ status: 'available', user_id: null, counter: 310 });
  });

  it('lets a user with no device enrol the first one again without step-up', async () => {
    advance(301);
    const codes = await demoTokenCodes(m.db, 'D100-0003', 2);
    const res = await m.call('carla@example.com', 'POST', '/devices/hardware-token', { serial: 'D100-0003', codes });
    expect(res.statusCode).toBe(201);
  });

  it('every refusal above is in the audit log, with no code', async () => {
    const failures = await m.db.selectFrom('audit_event').selectAll().where('outcome', '=', 'failure').execute();
    expect(failures.map((f) => f.reason)).toEqual(
      expect.arrayContaining([
        'auth.step_up_required',
        'device.not_found',
        'device.last_device_confirmation_required',
        'mfa.code_invalid',
        'token.not_available',
        'enrolment.expired',
      ]),
    );
    const text = JSON.stringify(await sql`select details from audit_event`.execute(m.db));
    expect(text).not.toMatch(/"(code|codes|secret)"/);
  });
});
