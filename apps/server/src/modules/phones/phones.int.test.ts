import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerCapabilitiesSchema } from '@mfa-portal/shared';
import { BUILTIN_PUSH_NEEDS_APP } from '../../mfa/builtin/builtin-provider.js';
import { addPhoneRecord, adminSnapshot, callAs, HELPDESK } from '../../../test/admin-api.js';
import { addUser, auditEvents, demoTokenCodes, errorOf, meTestApp, type MeTestApp, mfaSnapshot } from '../../../test/me-api.js';

/**
 * Phones and push on the builtin provider: its only phone channel is the portal's own authenticator
 * app. A phone by number, its activation link or text message, and a push to anything but a phone
 * activated in the app (an old phone record, another user's device) are refused with 409
 * mfa.not_supported_by_provider, audited, and nothing changes. Bad input is a 400 naming the field;
 * another user's ids are not found. (Pushes to the app: mfa/builtin/builtin-authenticator.int.test.ts;
 * the same routes on Duo: test/duo/duo-phones.int.test.ts.)
 */

let m: MeTestApp;
const BOB = 'bob@example.com';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function refusedWithoutChange(
  run: () => Promise<{ statusCode: number; json(): unknown }>,
  status: number,
  code: string,
  field?: string,
) {
  const before = await mfaSnapshot(m.db);
  const pushesBefore = await m.db.selectFrom('push_transaction').selectAll().execute();
  const res = await run();
  expect(res.statusCode).toBe(status);
  const body = errorOf(res);
  expect(body.code).toBe(code);
  if (field !== undefined) expect(body.details?.field).toBe(field);
  expect(await mfaSnapshot(m.db)).toBe(before);
  expect(await m.db.selectFrom('push_transaction').selectAll().execute()).toEqual(pushesBefore);
  return body;
}

beforeAll(async () => {
  m = await meTestApp();
  await addUser(m.db, 'newbie@example.com');
});
afterAll(async () => {
  await m.close();
});

describe('GET /api/me/capabilities on the builtin provider', () => {
  it('says: authenticator apps, tokens and its own phone app with push; no phones by number, no text messages', async () => {
    const res = await m.call(BOB, 'GET', '/capabilities');
    expect(res.statusCode).toBe(200);
    expect(providerCapabilitiesSchema.parse(res.json())).toEqual({
      provider: 'builtin',
      phones: false,
      smsActivation: false,
      push: true,
      totp: true,
      hardwareTokens: true,
      renameHardwareTokens: true,
      webauthn: true,
      webauthnEnrolledInProviderPrompt: false,
      authenticatorApp: true,
    });
  });

  it('needs a bearer token', async () => {
    const res = await m.t.app.inject({ url: '/api/me/capabilities' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/me/devices/phone on the builtin provider', () => {
  it('refuses a valid phone with mfa.not_supported_by_provider (first device: no step-up involved), audited', async () => {
    const body = await refusedWithoutChange(
      () => m.call('newbie@example.com', 'POST', '/devices/phone', { number: '+15555550111', platform: 'ios', name: 'My phone' }),
      409,
      'mfa.not_supported_by_provider',
    );
    expect(body.details?.reason).toMatch(/builtin/);
    const [event] = (await auditEvents(m.db, 'device.add_phone')).slice(-1);
    expect(event).toMatchObject({ outcome: 'failure', reason: 'mfa.not_supported_by_provider', target_upn: 'newbie@example.com' });
    expect(JSON.stringify(event!.details)).not.toContain('5555550111');
  });

  it.each([
    [{ number: '5555550111', platform: 'ios' }, 'number'],
    [{ number: '+1 555 555 0111', platform: 'ios' }, 'number'],
    [{ number: '+0123456789', platform: 'ios' }, 'number'],
    [{ number: '+1555', platform: 'ios' }, 'number'],
    [{ number: '+15555550111', platform: 'blackberry' }, 'platform'],
    [{ number: '+15555550111' }, 'platform'],
    [{ platform: 'android' }, 'number'],
    [{ number: '+15555550111', platform: 'ios', name: '' }, 'name'],
    [{ number: '+15555550111', platform: 'ios', name: 'x'.repeat(65) }, 'name'],
  ])('answers 400 naming the field for %j', async (payload, field) => {
    await refusedWithoutChange(() => m.call(BOB, 'POST', '/devices/phone', payload), 400, 'request.invalid', field);
  });
});

describe('activation, text message and pushes on the builtin provider', () => {
  let phoneId: string;
  beforeAll(async () => {
    phoneId = await addPhoneRecord(m.db, BOB);
  });

  it('refuses the activation link and the text message of an existing phone', async () => {
    await refusedWithoutChange(() => m.call(BOB, 'GET', `/devices/${phoneId}/activation`), 409, 'mfa.not_supported_by_provider');
    await refusedWithoutChange(() => m.call(BOB, 'POST', `/devices/${phoneId}/activation/sms`), 409, 'mfa.not_supported_by_provider');
  });

  it('refuses a test push to a phone not activated in the app, even one recorded with the push capability, and starts nothing', async () => {
    await refusedWithoutChange(() => m.call(BOB, 'POST', `/devices/${phoneId}/push`), 409, 'mfa.not_supported_by_provider');
    const [event] = (await auditEvents(m.db, 'device.test_push_start')).slice(-1);
    expect(event).toMatchObject({ outcome: 'failure', reason: 'mfa.not_supported_by_provider' });
  });

  it('refuses a step-up by push; no step-up is recorded', async () => {
    await refusedWithoutChange(() => m.call(BOB, 'POST', '/step-up/push', { deviceId: phoneId }), 409, 'mfa.not_supported_by_provider');
    const status = await m.call(BOB, 'GET', '/step-up');
    expect(status.json()).toMatchObject({ active: false });
  });

  it('answers 404 push.not_found for a push that does not exist', async () => {
    await refusedWithoutChange(() => m.call(BOB, 'GET', `/devices/${phoneId}/push/${UNKNOWN}`), 404, 'push.not_found');
    await refusedWithoutChange(() => m.call(BOB, 'GET', `/step-up/push/${UNKNOWN}`), 404, 'push.not_found');
  });

  it('answers 400 naming the field for malformed ids', async () => {
    await refusedWithoutChange(() => m.call(BOB, 'POST', '/devices/not-a-uuid/push'), 400, 'request.invalid', 'id');
    await refusedWithoutChange(() => m.call(BOB, 'GET', `/devices/${phoneId}/push/nope`), 400, 'request.invalid', 'txid');
    await refusedWithoutChange(() => m.call(BOB, 'GET', '/devices/nope/activation'), 400, 'request.invalid', 'id');
    await refusedWithoutChange(() => m.call(BOB, 'POST', '/step-up/push', { deviceId: 'phone' }), 400, 'request.invalid', 'deviceId');
    await refusedWithoutChange(() => m.call(BOB, 'POST', '/step-up/push', {}), 400, 'request.invalid', 'deviceId');
  });

  it("is refused before any lookup for another user's phone too (nothing about it leaks)", async () => {
    const helpdeskPhone = await addPhoneRecord(m.db, HELPDESK.upn);
    await refusedWithoutChange(() => m.call(BOB, 'POST', `/devices/${helpdeskPhone}/push`), 409, 'mfa.not_supported_by_provider');
    await refusedWithoutChange(() => m.call(BOB, 'GET', `/devices/${helpdeskPhone}/activation`), 409, 'mfa.not_supported_by_provider');
  });

  it('still lets the user step up with a passcode (the core is unaffected)', async () => {
    const [code] = await demoTokenCodes(m.db, 'D100-0001', 1);
    const res = await m.call(BOB, 'POST', '/step-up', { method: 'passcode', code });
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /api/admin/users/:upn/verify-identity/push on the builtin provider', () => {
  it('refuses a phone not activated in the app with mfa.not_supported_by_provider, audited with the role', async () => {
    const phoneId = await addPhoneRecord(m.db, BOB, 'Another phone record');
    const before = await adminSnapshot(m.db);
    const res = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${BOB}/verify-identity/push`, { deviceId: phoneId });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('mfa.not_supported_by_provider');
    expect(errorOf(res).details?.reason).toBe(BUILTIN_PUSH_NEEDS_APP);
    expect(await adminSnapshot(m.db)).toBe(before);
    const [event] = (await auditEvents(m.db, 'admin.user.verify_identity_push')).slice(-1);
    expect(event).toMatchObject({ actor_upn: HELPDESK.upn, target_upn: BOB, outcome: 'failure', reason: 'mfa.not_supported_by_provider' });
  });

  it('answers 400 for a bad device id and 404 for an unknown push', async () => {
    const bad = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${BOB}/verify-identity/push`, { deviceId: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).details?.field).toBe('deviceId');
    const unknown = await callAs(m, HELPDESK, 'GET', `/api/admin/users/${BOB}/verify-identity/push/${UNKNOWN}`);
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).code).toBe('push.not_found');
  });

  it('is denied to staff before anything else (403 auth.forbidden)', async () => {
    const res = await callAs(m, { upn: 'newbie@example.com', roles: [] }, 'POST', `/api/admin/users/${BOB}/verify-identity/push`, {
      deviceId: UNKNOWN,
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('auth.forbidden');
  });
});
