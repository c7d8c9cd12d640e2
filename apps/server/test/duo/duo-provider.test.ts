import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bypassCodeInfoSchema, deviceSchema, mfaDataSchema } from '@mfa-portal/shared';
import { AppError } from '../../src/lib/errors.js';
import { DUO_CANNOT_VERIFY_REASON, DUO_LOCKED_OUT_REASON, DUO_NEVER_EXPIRES } from '../../src/mfa/duo/duo-provider.js';
import { DuoApiError } from '../../src/mfa/duo/errors.js';
import { portalIdOf } from '../../src/mfa/duo/ids.js';
import { toAppError } from '../../src/mfa/errors.js';
import { MfaError, type MfaProvider } from '../../src/mfa/port.js';
import type { DuoStandin } from './duo-standin.js';
import { phonesFor, providerFor, seedDemoStaff, startStandin } from './support.js';

/**
 * The Duo adapter against the stand-in, operation by operation (the port's and the Duo-only ones),
 * with lists paged two by two so every read follows next_offset to the end.
 */

let standin: DuoStandin;
let duo: MfaProvider;
let waits: number[];
let seed: ReturnType<typeof seedDemoStaff>;

const BYPASS = { count: 2, validitySeconds: 3600, reuseCount: 1, replaceExisting: false, createdBy: 'bob@example.com' };

async function refused(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
}

/** The answer the portal gives to the adapter's refusal (the adapter throws MfaError; toAppError translates it). */
async function answered(p: Promise<unknown>): Promise<unknown> {
  const err = await refused(p);
  expect(err).toBeInstanceOf(MfaError);
  return toAppError(err);
}

async function mfaCode(p: Promise<unknown>): Promise<string> {
  const err = await refused(p);
  expect(err).toBeInstanceOf(MfaError);
  return (err as MfaError).code;
}

beforeAll(async () => {
  standin = await startStandin({ maxLimit: 2, lockoutThreshold: 3 });
  seed = seedDemoStaff(standin);
  ({ provider: duo, waits } = providerFor(standin, { pageSize: 100 }));
});
afterAll(() => standin.close());
beforeEach(() => {
  standin.clearFaults();
  waits.length = 0;
});

describe('users and statuses', () => {
  it('maps a user with a phone and a token to the portal’s data', async () => {
    const data = mfaDataSchema.parse(await duo.getUserData('BOB@example.com'));
    expect(data).toMatchObject({ provider: 'duo', status: 'active', statusReason: null, bypassCodes: { active: 0, nextExpiresAt: null } });
    expect(data.devices).toEqual([
      {
        id: portalIdOf('phone', seed.bobPhone.phone_id),
        kind: 'phone',
        name: 'iPhone 15',
        capabilities: ['push', 'passcode'],
        phoneNumber: '+•••••••0123',
        platform: 'iOS',
        serial: null,
        tokenType: null,
        createdAt: '2024-01-02T03:04:05.000Z',
        lastUsedAt: '2030-01-01T10:00:00.000Z',
      },
      {
        id: portalIdOf('token', seed.bobToken.token_id),
        kind: 'hardware_token',
        name: 'Duo D100 (D100-0001)',
        capabilities: ['passcode'],
        phoneNumber: null,
        platform: null,
        serial: 'D100-0001',
        tokenType: 'Duo D100',
        createdAt: '2024-01-02T03:04:05.000Z',
        lastUsedAt: null,
      },
    ]);
    expect(await duo.getAccount('bob@example.com')).toEqual({ status: 'active', statusReason: null, lockedUntil: null, deviceCount: 2 });
  });

  it('maps Duo’s statuses, finds users by alias, and reports unknown users as not provisioned', async () => {
    standin.addUser({ username: 'locked@example.com', status: 'locked out', lockoutReason: 'Failed Attempts' });
    standin.addUser({ username: 'lockednoreason@example.com', status: 'locked out' });
    standin.addUser({ username: 'bypass@example.com', status: 'bypass' });
    standin.addUser({ username: 'leaving@example.com', status: 'pending deletion' });
    standin.addUser({ username: 'jdoe', aliases: ['john.doe@example.com'] });
    expect(await duo.getAccount('disabled@example.com')).toMatchObject({ status: 'disabled', statusReason: null });
    expect(await duo.getAccount('locked@example.com')).toMatchObject({
      status: 'locked_out',
      statusReason: 'Failed Attempts',
      lockedUntil: null,
    });
    expect(await duo.getAccount('lockednoreason@example.com')).toMatchObject({ status: 'locked_out', statusReason: DUO_LOCKED_OUT_REASON });
    expect(await duo.getAccount('bypass@example.com')).toMatchObject({ status: 'bypass' });
    expect(await duo.getAccount('leaving@example.com')).toMatchObject({ status: 'disabled', statusReason: 'Pending deletion at Duo' });
    expect(await duo.getAccount('john.doe@example.com')).toMatchObject({ status: 'active', deviceCount: 0 });
    expect(await duo.getAccount('nomfa@example.com')).toBeNull();
    expect(await duo.getUserData('nomfa@example.com')).toEqual({
      provider: 'duo',
      status: 'not_provisioned',
      statusReason: null,
      devices: [],
      bypassCodes: { active: 0, nextExpiresAt: null },
    });
    expect(await mfaCode(duo.listDevices('nomfa@example.com'))).toBe('not_provisioned');
    expect(await mfaCode(duo.renameDevice('disabled@example.com', portalIdOf('phone', 'x'), 'x'))).toBe('user_disabled');
    expect(await mfaCode(duo.deleteDevice('locked@example.com', portalIdOf('phone', 'x'), { allowLast: true }))).toBe('user_locked_out');
  });

  it('reads every page of phones, tokens and bypass codes', async () => {
    const many = standin.addUser({ username: 'many@example.com' });
    for (let i = 0; i < 5; i += 1) standin.addPhone({ userId: many.user_id, number: `+1555555080${i}`, name: `Phone ${i}` });
    for (let i = 0; i < 3; i += 1) standin.addToken({ serial: `MANY-${i}`, userId: many.user_id });
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 5; i += 1)
      standin.addBypassCode(many.user_id, { code: `90000000${i}`, expiration: now + 600 + i, reuseCount: 1, created: now - 10 + i });
    standin.requests.length = 0;
    const data = await duo.getUserData('many@example.com');
    expect(data.devices.map((d) => d.name)).toEqual([
      'Phone 0',
      'Phone 1',
      'Phone 2',
      'Phone 3',
      'Phone 4',
      'Duo D100 (MANY-0)',
      'Duo D100 (MANY-1)',
      'Duo D100 (MANY-2)',
    ]);
    expect(data.bypassCodes).toEqual({ active: 5, nextExpiresAt: new Date((now + 600) * 1000).toISOString() });
    expect(standin.requestsTo('GET', /\/phones$/).map((r) => r.params.offset)).toEqual(['0', '2', '4']);
    expect(standin.requestsTo('GET', /\/tokens$/).map((r) => r.params.offset)).toEqual(['0', '2']);
    expect(standin.requestsTo('GET', /\/bypass_codes$/).map((r) => r.params.offset)).toEqual(['0', '2', '4']);
    expect((await duo.listBypassCodes('many@example.com')).map((c) => c.usesLeft)).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('authenticator apps', () => {
  it('are not supported by Duo: 409 mfa.not_supported_by_provider', async () => {
    const err = await answered(duo.startTotpEnrolment('alice@example.com', { allowWhenDevicesExist: false, issuer: 'MFA Portal' }));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ statusCode: 409, code: 'mfa.not_supported_by_provider' });
    expect(
      await answered(
        duo.confirmTotpEnrolment('alice@example.com', crypto.randomUUID(), { code: '123456', name: 'x' }, { allowWhenDevicesExist: false }),
      ),
    ).toMatchObject({
      code: 'mfa.not_supported_by_provider',
    });
  });
});

describe('hardware tokens', () => {
  it('claim: an unknown serial is not found; codes that fail leave the token unassigned', async () => {
    expect(
      await mfaCode(
        duo.claimHardwareToken('alice@example.com', { serial: 'D100-9999', codes: ['123456', '123457'] }, { allowWhenDevicesExist: false }),
      ),
    ).toBe('token_not_found');
    // Duo checks each code within its look-ahead window, so what fails is a wrong code or codes out of
    // order (the second is behind the first), not a gap between them.
    const [a, , c] = standin.tokenCodes('D100-0002', 3);
    expect(
      await mfaCode(
        duo.claimHardwareToken('alice@example.com', { serial: 'D100-0002', codes: [c!, a!] }, { allowWhenDevicesExist: false }),
      ),
    ).toBe('code_invalid');
    expect(standin.token('D100-0002').userIds).toEqual([]);
    expect(
      await mfaCode(
        duo.claimHardwareToken('alice@example.com', { serial: 'D100-0002', codes: ['000000', '000001'] }, { allowWhenDevicesExist: false }),
      ),
    ).toBe('code_invalid');
    expect(standin.token('D100-0002').userIds).toEqual([]);
    // The failed attempt counted at Duo; a success resets it.
    standin.user('alice@example.com').failedAttempts = 0;
  });

  it('claim: two consecutive codes associate the token with the user', async () => {
    const codes = standin.tokenCodes('D100-0002', 2);
    const device = deviceSchema.parse(
      await duo.claimHardwareToken('alice@example.com', { serial: 'D100-0002', codes }, { allowWhenDevicesExist: false }),
    );
    expect(device).toMatchObject({ kind: 'hardware_token', serial: 'D100-0002', tokenType: 'Duo D100' });
    expect(standin.token('D100-0002').userIds).toEqual([seed.alice.user_id]);
    expect(
      standin
        .requestsTo('POST', /^\/auth\/v2\/auth$/)
        .slice(-2)
        .map((r) => r.params.factor),
    ).toEqual(['passcode', 'passcode']);
  });

  it('claim: refuses a token someone has, and a second device without step-up', async () => {
    expect(
      await mfaCode(
        duo.claimHardwareToken(
          'helpdesk@example.com',
          { serial: 'D100-0002', codes: standin.tokenCodes('D100-0002', 2) },
          { allowWhenDevicesExist: true },
        ),
      ),
    ).toBe('token_not_available');
    expect(
      await mfaCode(
        duo.claimHardwareToken(
          'alice@example.com',
          { serial: 'D100-0003', codes: standin.tokenCodes('D100-0003', 2) },
          { allowWhenDevicesExist: false },
        ),
      ),
    ).toBe('has_devices');
  });

  it('resync: three consecutive codes far ahead move the counter; wrong codes are refused', async () => {
    const id = portalIdOf('token', standin.token('D100-0002').token_id);
    const codes = standin.tokenCodes('D100-0002', 3, 400);
    await expect(duo.resyncHardwareToken('alice@example.com', id, codes)).resolves.toMatchObject({ id });
    expect(standin.token('D100-0002').counter).toBeGreaterThan(400);
    expect(await mfaCode(duo.resyncHardwareToken('alice@example.com', id, standin.tokenCodes('D100-0002', 3, -10)))).toBe('code_invalid');
    expect(await mfaCode(duo.resyncHardwareToken('bob@example.com', id, codes))).toBe('device_not_found');
    expect(await mfaCode(duo.resyncHardwareToken('bob@example.com', portalIdOf('phone', seed.bobPhone.phone_id), codes))).toBe(
      'not_hardware_token',
    );
  });

  it('release: the token goes back to the inventory with its counter', async () => {
    const token = standin.token('D100-0002');
    const counter = token.counter;
    expect(await mfaCode(duo.releaseHardwareToken('alice@example.com', portalIdOf('token', token.token_id), { allowLast: false }))).toBe(
      'last_device',
    );
    await duo.releaseHardwareToken('alice@example.com', portalIdOf('token', token.token_id), { allowLast: true });
    expect(standin.token('D100-0002')).toMatchObject({ userIds: [], counter });
  });
});

describe('phones', () => {
  it('rename sets the phone’s name at Duo; a token has no name at Duo', async () => {
    const id = portalIdOf('phone', seed.bobPhone.phone_id);
    await expect(duo.renameDevice('bob@example.com', id, 'Work phone')).resolves.toMatchObject({ id, name: 'Work phone' });
    expect(standin.phones.get(seed.bobPhone.phone_id)!.name).toBe('Work phone');
    expect(await answered(duo.renameDevice('bob@example.com', portalIdOf('token', seed.bobToken.token_id), 'x'))).toMatchObject({
      code: 'mfa.not_supported_by_provider',
      statusCode: 409,
    });
    expect(await mfaCode(duo.renameDevice('alice@example.com', id, 'Mine'))).toBe('device_not_found');
  });

  it('addPhone: an E.164 number and platform, associated; refuses a bad number and a second device without step-up', async () => {
    const carol = standin.addUser({ username: 'carol@example.com' });
    expect(
      await answered(duo.addPhone('carol@example.com', { number: '555-0100', platform: 'ios' }, { allowWhenDevicesExist: false })),
    ).toMatchObject({ statusCode: 400, code: 'request.invalid', details: { field: 'number' } });
    const device = await duo.addPhone(
      'carol@example.com',
      { number: '+1 555 555 0177', platform: 'android', name: 'Carol’s Pixel' },
      { allowWhenDevicesExist: false },
    );
    expect(device).toMatchObject({
      kind: 'phone',
      name: 'Carol’s Pixel',
      platform: 'Android',
      phoneNumber: '+•••••••0177',
      capabilities: [],
    });
    const phone = [...standin.phones.values()].find((p) => p.number === '+15555550177')!;
    expect(phone).toMatchObject({ platform: 'Google Android', type: 'Mobile', userIds: [carol.user_id], activated: false });
    expect(
      await mfaCode(duo.addPhone('carol@example.com', { number: '+15555550178', platform: 'ios' }, { allowWhenDevicesExist: false })),
    ).toBe('has_devices');
  });

  it('activation: a Duo Mobile link and a QR code rendered by the portal; by SMS too', async () => {
    const phone = [...standin.phones.values()].find((p) => p.number === '+15555550177')!;
    const id = portalIdOf('phone', phone.phone_id);
    const a = await phonesFor(standin).phoneActivation('carol@example.com', id, { install: true });
    expect(a.activationUrl).toMatch(/^https:\/\/m-standin\.duosecurity\.com\/activate\//);
    expect(a.activationBarcodeUrl).toContain('/frame/qr?value=');
    expect(a.qrSvg).toMatch(/^<svg/);
    expect(a.installationUrl).toBeTruthy();
    expect(standin.requestsTo('POST', /activation_url$/).at(-1)!.params).toEqual({ valid_secs: '86400', install: '1' });
    await duo.sendSmsActivation('carol@example.com', id);
    expect(phone.smsActivationsSent).toBe(1);
    standin.activatePhone(phone.phone_id);
    expect((await duo.listDevices('carol@example.com'))[0]!.capabilities).toEqual(['push', 'passcode']);
    expect(await answered(duo.phoneActivation('bob@example.com', portalIdOf('token', seed.bobToken.token_id)))).toMatchObject({
      code: 'mfa.not_supported_by_provider',
    });
  });

  it('push: sent asynchronously to that phone, then polled', async () => {
    const id = portalIdOf('phone', seed.bobPhone.phone_id);
    const { txid, verificationCode } = await duo.startPush('bob@example.com', id, { purpose: 'device_test', ipaddr: '192.0.2.7' });
    // The portal can show a code, and says so; this tenant does not require verified pushes.
    expect(standin.requestsTo('POST', /^\/auth\/v2\/preauth$/).at(-1)!.params).toMatchObject({
      client_supports_verified_push: '1',
      ipaddr: '192.0.2.7',
    });
    expect(verificationCode).toBeNull();
    const sent = standin.requestsTo('POST', /^\/auth\/v2\/auth$/).at(-1)!.params;
    expect(sent).toMatchObject({
      factor: 'push',
      async: '1',
      device: seed.bobPhone.phone_id,
      user_id: seed.bob.user_id,
      ipaddr: '192.0.2.7',
      type: 'Check this phone',
      display_username: 'bob@example.com',
    });
    expect(sent.txid).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(sent.pushinfo))).toEqual({
      from: 'MFA self-service portal',
      action: 'Check that this phone works',
    });
    expect(await duo.pushStatus('bob@example.com', txid)).toMatchObject({ state: 'waiting' });
    standin.answerPush(txid, 'allow');
    expect(await duo.pushStatus('bob@example.com', txid)).toMatchObject({ state: 'approved' });
  });

  it('helpdesk verification push: a confirmation code, then the user’s answer', async () => {
    const id = portalIdOf('phone', seed.bobPhone.phone_id);
    const { pushId, confirmationCode } = await duo.sendVerificationPush('bob@example.com', id);
    expect(confirmationCode).toMatch(/^\d{6}$/);
    expect(await duo.verificationPushResponse('bob@example.com', pushId)).toMatchObject({ state: 'waiting' });
    standin.answerVerificationPush(pushId, 'fraud');
    expect(await duo.verificationPushResponse('bob@example.com', pushId)).toMatchObject({ state: 'fraud' });
  });

  it('delete: a phone shared with another user only loses this user’s association', async () => {
    const dave = standin.addUser({ username: 'dave@example.com' });
    const erin = standin.addUser({ username: 'erin@example.com' });
    const shared = standin.addPhone({ userId: dave.user_id, number: '+15555550190', name: 'Shared desk phone', type: 'Landline' });
    shared.userIds.push(erin.user_id);
    standin.addToken({ serial: 'DAVE-1', userId: dave.user_id });
    await duo.deleteDevice('dave@example.com', portalIdOf('phone', shared.phone_id), { allowLast: false });
    expect(standin.phones.get(shared.phone_id)!.userIds).toEqual([erin.user_id]);
    await duo.deleteDevice('erin@example.com', portalIdOf('phone', shared.phone_id), { allowLast: true });
    expect(standin.phones.has(shared.phone_id)).toBe(false);
  });
});

describe('verification through the Auth API', () => {
  it('a token code passes once (Duo never accepts it twice); a wrong one fails', async () => {
    const [code] = standin.tokenCodes('D100-0001', 1);
    const tokenId = portalIdOf('token', seed.bobToken.token_id);
    expect(await duo.verifyPasscode('bob@example.com', code!)).toEqual({ ok: true, method: 'hotp', deviceId: null, bypassId: null });
    expect(await duo.verifyPasscode('bob@example.com', code!)).toMatchObject({ ok: false, reason: 'code_invalid', justLocked: false });
    const [next] = standin.tokenCodes('D100-0001', 1);
    expect(await duo.verifyPasscode('bob@example.com', next!, { deviceId: tokenId, methods: ['passcode'] })).toEqual({
      ok: true,
      method: 'hotp',
      deviceId: tokenId,
      bypassId: null,
    });
    expect(standin.requestsTo('POST', /^\/auth\/v2\/preauth$/).at(-1)!.params).toEqual({ user_id: seed.bob.user_id });
  });

  it('refuses what cannot be checked without asking Duo', async () => {
    const before = standin.requests.length;
    expect(await duo.verifyPasscode('bob@example.com', '12345')).toMatchObject({ ok: false, reason: 'code_invalid' });
    expect(await duo.verifyPasscode('bob@example.com', '123456789', { methods: ['passcode'] })).toMatchObject({
      ok: false,
      reason: 'code_invalid',
    });
    expect(await duo.verifyPasscode('bob@example.com', '123456', { methods: ['bypass'] })).toMatchObject({
      ok: false,
      reason: 'code_invalid',
    });
    expect(standin.requests.slice(before).some((r) => r.path.startsWith('/auth/'))).toBe(false);
    expect(await duo.verifyPasscode('nomfa@example.com', '123456')).toMatchObject({ ok: false, reason: 'not_provisioned' });
    expect(await duo.verifyPasscode('disabled@example.com', '123456')).toMatchObject({ ok: false, reason: 'user_disabled' });
    standin.addUser({ username: 'empty@example.com' });
    expect(await duo.verifyPasscode('empty@example.com', '123456')).toMatchObject({ ok: false, reason: 'no_factor' });
    expect(await duo.verifyPasscode('bypass@example.com', '123456')).toMatchObject({
      ok: false,
      reason: 'no_factor',
      statusReason: DUO_CANNOT_VERIFY_REASON,
    });
    expect(await mfaCode(duo.verifyPasscode('bob@example.com', '123456', { deviceId: portalIdOf('phone', 'not-his') }))).toBe(
      'device_not_found',
    );
    const landline = standin.addPhone({ userId: standin.user('empty@example.com').user_id, number: '+15555550199', type: 'Landline' });
    expect(await mfaCode(duo.verifyPasscode('empty@example.com', '123456', { deviceId: portalIdOf('phone', landline.phone_id) }))).toBe(
      'verification_unsupported',
    );
  });

  it('locks the user after Duo’s threshold, and says so on the failure that locked', async () => {
    const frank = standin.addUser({ username: 'frank@example.com' });
    standin.addToken({ serial: 'FRANK-1', userId: frank.user_id });
    expect(await duo.verifyPasscode('frank@example.com', '000000')).toMatchObject({ ok: false, reason: 'code_invalid', justLocked: false });
    expect(await duo.verifyPasscode('frank@example.com', '000000')).toMatchObject({ ok: false, reason: 'code_invalid' });
    expect(await duo.verifyPasscode('frank@example.com', '000000')).toEqual({
      ok: false,
      reason: 'user_locked_out',
      justLocked: true,
      retryAfterSeconds: null,
      statusReason: 'Failed Attempts',
    });
    const [right] = standin.tokenCodes('FRANK-1', 1);
    expect(await duo.verifyPasscode('frank@example.com', right!)).toMatchObject({
      ok: false,
      reason: 'user_locked_out',
      justLocked: false,
    });
    expect(standin.token('FRANK-1').counter).toBe(0);
  });
});

describe('bypass codes', () => {
  it('creates codes with every parameter sent, preserve_existing included; lists their metadata', async () => {
    const created = await duo.createBypassCodes('bob@example.com', BYPASS);
    expect(created.codes).toHaveLength(2);
    expect(created.replaced).toBe(0);
    for (const c of created.codes) expect(c.code).toMatch(/^\d{3} \d{3} \d{3}$/);
    expect(standin.requestsTo('POST', /\/bypass_codes$/).at(-1)!.params).toEqual({
      count: '2',
      valid_secs: '3600',
      reuse_count: '1',
      preserve_existing: 'true',
    });
    const listed = await duo.listBypassCodes('bob@example.com');
    expect(listed.map((c) => bypassCodeInfoSchema.parse(c).id).sort()).toEqual(created.codes.map((c) => c.id).sort());
    expect(listed[0]).toMatchObject({ usesLeft: 1, reuseCount: null, createdBy: 'Duo Admin API' });
    expect((await duo.getUserData('bob@example.com')).bypassCodes.active).toBe(2);
  });

  it('a code works once at step-up (method bypass), then no more', async () => {
    const { codes } = await duo.createBypassCodes('bob@example.com', { ...BYPASS, count: 1 });
    expect(await duo.verifyPasscode('bob@example.com', codes[0]!.code, { methods: ['bypass'] })).toEqual({
      ok: true,
      method: 'bypass',
      deviceId: null,
      bypassId: null,
    });
    expect(await duo.verifyPasscode('bob@example.com', codes[0]!.code, { methods: ['bypass'] })).toMatchObject({
      ok: false,
      reason: 'code_invalid',
    });
  });

  it('replaceExisting sends preserve_existing=false and counts the codes replaced', async () => {
    const live = (await duo.listBypassCodes('bob@example.com')).length;
    const created = await duo.createBypassCodes('bob@example.com', { ...BYPASS, count: 1, replaceExisting: true });
    expect(created.replaced).toBe(live);
    expect(standin.requestsTo('POST', /\/bypass_codes$/).at(-1)!.params.preserve_existing).toBe('false');
    expect(await duo.listBypassCodes('bob@example.com')).toHaveLength(1);
  });

  it('refuses requests outside the portal’s rules before calling Duo', async () => {
    const before = standin.requests.length;
    for (const bad of [{ count: 11 }, { count: 0 }, { validitySeconds: 0 }, { validitySeconds: 604_801 }, { reuseCount: 0 }]) {
      const err = await refused(duo.createBypassCodes('bob@example.com', { ...BYPASS, ...bad }));
      expect(err).toMatchObject({ code: 'bypass_invalid_request' });
    }
    expect(standin.requests.length).toBe(before);
  });

  it('refuses more than 100 live codes unless replacing', async () => {
    const user = standin.addUser({ username: 'hoarder@example.com' });
    const exp = Math.floor(Date.now() / 1000) + 600;
    for (let i = 0; i < 99; i += 1) standin.addBypassCode(user.user_id, { code: String(100000000 + i), expiration: exp, reuseCount: 1 });
    expect(await mfaCode(duo.createBypassCodes('hoarder@example.com', { ...BYPASS, count: 2 }))).toBe('too_many_live_codes');
    await expect(duo.createBypassCodes('hoarder@example.com', { ...BYPASS, count: 2, replaceExisting: true })).resolves.toMatchObject({
      replaced: 99,
    });
  });

  it('revokes one code by its portal id; another user’s id is not found', async () => {
    const [info] = await duo.listBypassCodes('bob@example.com');
    expect(await mfaCode(duo.revokeBypassCode('alice@example.com', info!.id))).toBe('bypass_not_found');
    await expect(duo.revokeBypassCode('bob@example.com', info!.id)).resolves.toEqual(info);
    expect(await duo.listBypassCodes('bob@example.com')).toEqual([]);
  });

  it('shows codes made at Duo that never expire or never run out with the documented stand-ins', async () => {
    const user = standin.addUser({ username: 'legacy@example.com' });
    standin.addBypassCode(user.user_id, { code: '555666777', expiration: null, reuseCount: 0, adminEmail: 'admin@example.com' });
    expect(await duo.listBypassCodes('legacy@example.com')).toEqual([
      expect.objectContaining({ expiresAt: DUO_NEVER_EXPIRES.toISOString(), usesLeft: null, createdBy: 'admin@example.com' }),
    ]);
  });
});

describe('Duo answering 429 and 5xx', () => {
  it('a list read behind two 429s backs off and succeeds', async () => {
    standin.failNext({ times: 2, status: 429, method: 'GET', path: /\/phones$/ });
    await expect(duo.listDevices('bob@example.com')).resolves.toHaveLength(2);
    expect(waits).toHaveLength(2);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(8000);
  });

  it('429 past the retry budget: 503 mfa.provider_rate_limited with Retry-After', async () => {
    standin.failNext({ times: 10, status: 429, method: 'GET', path: /^\/admin\/v1\/users$/ });
    const err = await refused(duo.getAccount('bob@example.com'));
    expect(err).toBeInstanceOf(DuoApiError);
    expect(err).toMatchObject({ statusCode: 503, code: 'mfa.provider_rate_limited' });
    // Duo's schedule within the 8 s budget: 1 s and 2 s, then 4 s when the random part (under 1 s
    // each) left room for it.
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(waits.length).toBeLessThanOrEqual(3);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(8000);
  });

  it('5xx: a GET is retried; a POST is not (the stand-in sees one)', async () => {
    standin.failNext({ times: 2, status: 502, method: 'GET', path: /\/tokens$/ });
    await expect(duo.listDevices('bob@example.com')).resolves.toHaveLength(2);
    const posts = standin.requestsTo('POST', /\/bypass_codes$/).length;
    standin.failNext({ times: 1, status: 500, method: 'POST', path: /\/bypass_codes$/ });
    expect(await refused(duo.createBypassCodes('bob@example.com', BYPASS))).toMatchObject({
      statusCode: 503,
      code: 'mfa.provider_unavailable',
      httpStatus: 500,
    });
    expect(standin.requestsTo('POST', /\/bypass_codes$/)).toHaveLength(posts + 1);
  });

  it('a DELETE whose answer was lost is retried; Duo answers 200 for what is already gone, done', async () => {
    await duo.createBypassCodes('bob@example.com', { ...BYPASS, count: 1 });
    const [info] = await duo.listBypassCodes('bob@example.com');
    standin.failNext({ times: 1, status: 503, method: 'DELETE', afterEffect: true });
    await expect(duo.revokeBypassCode('bob@example.com', info!.id)).resolves.toEqual(info);
    expect(
      standin
        .requestsTo('DELETE', /\/bypass_codes\//)
        .slice(-2)
        .map((r) => r.status),
    ).toEqual([503, 200]);
  });

  it('wrong credentials: 502 mfa.provider_rejected naming Duo’s code', async () => {
    const { provider } = providerFor(standin, { secretKey: 'y'.repeat(40) });
    expect(await refused(provider.getAccount('bob@example.com'))).toMatchObject({
      statusCode: 502,
      code: 'mfa.provider_rejected',
      details: { provider: 'duo', providerStatus: 401, providerCode: 40103 },
    });
  });
});
