import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_IDENTITY_CHECK_FRESH_SECONDS,
  adminLostDeviceProgressSchema,
  adminVerifyPushResponseSchema,
  adminVerifyPushStatusSchema,
  deviceSchema,
  phoneActivationResponseSchema,
  providerCapabilitiesSchema,
  PUSH_TIMEOUT_SECONDS,
  pushTransactionSchema,
  smsActivationResponseSchema,
  startedPushSchema,
  stepUpPushStatusSchema,
  stepUpStatusSchema,
  type Device,
} from '@mfa-portal/shared';
import { portalIdOf } from '../../src/mfa/duo/ids.js';
import { callAs, HELPDESK, ADMIN } from '../admin-api.js';
import { advance, auditEvents, devicesOf, errorOf, meTestApp, type MeTestApp } from '../me-api.js';
import type { DuoStandin } from './duo-standin.js';
import { duoEnv, seedDemoStaff, startStandin } from './support.js';

/**
 * Phones and push on Duo, against the Duo stand-in: adding a phone, activating Duo Mobile
 * (QR code or text message), test pushes approved / denied / reported / timed out, step-up by push, the
 * helpdesk's verification push, and the refusals (bad number, step-up, another user's ids).
 */

let standin: DuoStandin;
let m: MeTestApp;
let seed: ReturnType<typeof seedDemoStaff>;
const BOB = 'bob@example.com';
const ALICE = 'alice@example.com';
let bobPhone: string;
let bobToken: string;

/** The Duo txid of the latest push to a phone (what the user's Duo Mobile would show). */
function latestPushTo(duoPhoneId: string): string {
  const pushes = [...standin.pushes.values()].filter((p) => p.phone_id === duoPhoneId);
  expect(pushes.length).toBeGreaterThan(0);
  return pushes.at(-1)!.txid;
}

async function refusedWithoutChange(
  run: () => Promise<{ statusCode: number; json(): unknown }>,
  status: number,
  code: string,
  field?: string,
) {
  const before = standin.snapshot();
  const pushesBefore = standin.pushes.size;
  const res = await run();
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  const body = errorOf(res);
  expect(body.code).toBe(code);
  if (field !== undefined) expect(body.details?.field).toBe(field);
  expect(standin.snapshot()).toBe(before);
  expect(standin.pushes.size).toBe(pushesBefore);
  return body;
}

async function stepUpWithToken(upn: string, serial: string) {
  const [code] = standin.tokenCodes(serial, 1);
  const res = await m.call(upn, 'POST', '/step-up', { method: 'passcode', code });
  expect(res.statusCode).toBe(200);
}

beforeAll(async () => {
  // Pushes live longer at this Duo than the portal's own time-out, so the portal's is the one seen.
  standin = await startStandin({ maxLimit: 2, lockoutThreshold: 3, pushLifetimeSeconds: 3600 });
  seed = seedDemoStaff(standin);
  m = await meTestApp(
    duoEnv(standin, { MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '10000', PUSH_LIMIT_PER_USER: '1000' }),
  );
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date());
  bobPhone = portalIdOf('phone', seed.bobPhone.phone_id);
  bobToken = portalIdOf('token', seed.bobToken.token_id);
});
afterAll(async () => {
  vi.useRealTimers();
  await m.close();
  await standin.close();
});

describe('GET /api/me/capabilities on Duo', () => {
  it('offers phones, text messages, push and tokens; no authenticator apps, no names for tokens', async () => {
    const res = await m.call(BOB, 'GET', '/capabilities');
    expect(providerCapabilitiesSchema.parse(res.json())).toEqual({
      provider: 'duo',
      phones: true,
      smsActivation: true,
      push: true,
      totp: false,
      hardwareTokens: true,
      renameHardwareTokens: false,
      webauthn: false,
      webauthnEnrolledInProviderPrompt: true,
      authenticatorApp: false,
    });
  });
});

describe('adding and activating a phone on Duo', () => {
  let alicePhone: Device;

  it('adds a first phone without step-up: E.164 number, platform and name reach Duo; the number is shown masked', async () => {
    const res = await m.call(ALICE, 'POST', '/devices/phone', { number: '+442079460958', platform: 'android', name: 'Work Pixel' });
    expect(res.statusCode, res.body).toBe(201);
    alicePhone = deviceSchema.parse(res.json());
    expect(alicePhone).toMatchObject({ kind: 'phone', name: 'Work Pixel', platform: 'Android', capabilities: [] });
    expect(alicePhone.phoneNumber).not.toContain('2079460');
    expect(alicePhone.phoneNumber).toMatch(/0958$/);
    const atDuo = [...standin.phones.values()].find((p) => p.userIds.includes(seed.alice.user_id));
    expect(atDuo).toMatchObject({ number: '+442079460958', name: 'Work Pixel', platform: 'Google Android', type: 'Mobile' });
    expect((await auditEvents(m.db, 'device.add_phone')).at(-1)).toMatchObject({ outcome: 'success', target_upn: ALICE });
    expect(JSON.stringify((await auditEvents(m.db, 'device.add_phone')).at(-1)!.details)).not.toContain('2079460958');
  });

  it('refuses a second phone without a fresh step-up (403 auth.step_up_required), nothing created at Duo', async () => {
    await refusedWithoutChange(
      () => m.call(ALICE, 'POST', '/devices/phone', { number: '+15555550177', platform: 'ios' }),
      403,
      'auth.step_up_required',
    );
  });

  it.each([
    [{ number: '555 555 0177', platform: 'ios' }, 'number'],
    [{ number: '+1555', platform: 'ios' }, 'number'],
    [{ number: '+15555550177', platform: 'symbian' }, 'platform'],
  ])('answers 400 for a bad number or platform (%j), nothing sent to Duo', async (payload, field) => {
    const sent = standin.requests.length;
    await refusedWithoutChange(() => m.call(ALICE, 'POST', '/devices/phone', payload), 400, 'request.invalid', field);
    expect(standin.requests.length).toBe(sent);
  });

  it('a phone not yet activated cannot receive a push (409 device.verification_unsupported)', async () => {
    await refusedWithoutChange(() => m.call(ALICE, 'POST', `/devices/${alicePhone.id}/push`), 409, 'device.verification_unsupported');
  });

  it('gives the Duo Mobile activation link and its QR code as SVG (only device: no step-up)', async () => {
    const res = await m.call(ALICE, 'GET', `/devices/${alicePhone.id}/activation`);
    expect(res.statusCode, res.body).toBe(200);
    const a = phoneActivationResponseSchema.parse(res.json());
    expect(a.activationUrl).toMatch(/^https:\/\/.+\/activate\//);
    expect(a.qrSvg).toMatch(/^<svg|<\?xml/);
    expect(Date.parse(a.expiresAt)).toBeGreaterThan(Date.now());
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('sends the activation link by text message', async () => {
    const res = await m.call(ALICE, 'POST', `/devices/${alicePhone.id}/activation/sms`);
    expect(res.statusCode, res.body).toBe(200);
    expect(smsActivationResponseSchema.parse(res.json()).sent).toBe(true);
    expect(standin.requests.at(-1)?.path).toMatch(/\/admin\/v1\/phones\/.+\/send_sms_activation$/);
    expect((await auditEvents(m.db, 'device.activation')).at(-1)).toMatchObject({
      outcome: 'success',
      details: expect.objectContaining({ channel: 'sms' }),
    });
  });

  it('once scanned in Duo Mobile the phone has push and passcodes', async () => {
    const duoPhone = [...standin.phones.values()].find((p) => p.userIds.includes(seed.alice.user_id))!;
    standin.activatePhone(duoPhone.phone_id);
    const phone = (await devicesOf(m, ALICE)).find((d) => d.id === alicePhone.id);
    expect(phone?.capabilities).toEqual(['push', 'passcode']);
  });

  it("re-activating a phone when another device exists needs a step-up (it hands over the phone's push)", async () => {
    await refusedWithoutChange(() => m.call(BOB, 'GET', `/devices/${bobPhone}/activation`), 403, 'auth.step_up_required');
    await refusedWithoutChange(() => m.call(BOB, 'POST', `/devices/${bobPhone}/activation/sms`), 403, 'auth.step_up_required');
  });

  it("another user's phone is not found; a hardware token cannot be activated", async () => {
    await refusedWithoutChange(() => m.call(ALICE, 'GET', `/devices/${bobPhone}/activation`), 404, 'device.not_found');
    await stepUpWithToken(BOB, 'D100-0001');
    await refusedWithoutChange(() => m.call(BOB, 'GET', `/devices/${bobToken}/activation`), 409, 'mfa.not_supported_by_provider');
  });
});

describe('test push on Duo', () => {
  async function start(upn = BOB, deviceId = bobPhone) {
    const res = await m.call(upn, 'POST', `/devices/${deviceId}/push`);
    expect(res.statusCode, res.body).toBe(202);
    const push = pushTransactionSchema.parse(res.json());
    expect(push).toMatchObject({ state: 'waiting', deviceId, completedAt: null });
    return push;
  }
  const poll = async (txid: string, upn = BOB, deviceId = bobPhone) => {
    const res = await m.call(upn, 'GET', `/devices/${deviceId}/push/${txid}`);
    expect(res.statusCode, res.body).toBe(200);
    return pushTransactionSchema.parse(res.json());
  };

  it('is waiting until approved in Duo Mobile, then approved; the result is audited once', async () => {
    const push = await start();
    expect(push.txid).not.toBe(latestPushTo(seed.bobPhone.phone_id)); // Duo's txid stays on the server
    expect((await poll(push.txid)).state).toBe('waiting');
    standin.answerPush(latestPushTo(seed.bobPhone.phone_id), 'allow');
    const done = await poll(push.txid);
    expect(done.state).toBe('approved');
    expect(done.completedAt).not.toBeNull();
    expect((await poll(push.txid)).state).toBe('approved');
    const results = (await auditEvents(m.db, 'device.test_push')).filter((e) => (e.details as { txid?: string }).txid === push.txid);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ outcome: 'success', reason: null });
  });

  it.each([
    ['deny', 'denied'],
    ['fraud', 'fraud'],
    ['timeout', 'timeout'],
  ] as const)('Duo answer %s reads as %s (a failure in the audit log)', async (answer, state) => {
    const push = await start();
    standin.answerPush(latestPushTo(seed.bobPhone.phone_id), answer);
    expect((await poll(push.txid)).state).toBe(state);
    const [event] = (await auditEvents(m.db, 'device.test_push')).filter((e) => (e.details as { txid?: string }).txid === push.txid);
    expect(event).toMatchObject({ outcome: 'failure', reason: `push.${state}` });
  });

  it(`times out after ${PUSH_TIMEOUT_SECONDS} s without an answer, even if Duo still waits`, async () => {
    const push = await start();
    advance(PUSH_TIMEOUT_SECONDS - 1);
    expect((await poll(push.txid)).state).toBe('waiting');
    advance(2);
    expect((await poll(push.txid)).state).toBe('timeout');
    // A late approval changes nothing.
    standin.answerPush(latestPushTo(seed.bobPhone.phone_id), 'allow');
    expect((await poll(push.txid)).state).toBe('timeout');
  });

  it("another user's push, or the push under another device, is not found", async () => {
    const push = await start();
    await refusedWithoutChange(() => m.call(ALICE, 'GET', `/devices/${bobPhone}/push/${push.txid}`), 404, 'push.not_found');
    await refusedWithoutChange(() => m.call(BOB, 'GET', `/devices/${bobToken}/push/${push.txid}`), 404, 'push.not_found');
    // Nor is it a step-up push.
    await refusedWithoutChange(() => m.call(BOB, 'GET', `/step-up/push/${push.txid}`), 404, 'push.not_found');
  });

  it("refuses a push to another user's phone (404) and to a hardware token (409)", async () => {
    await refusedWithoutChange(() => m.call(ALICE, 'POST', `/devices/${bobPhone}/push`), 404, 'device.not_found');
    await refusedWithoutChange(() => m.call(BOB, 'POST', `/devices/${bobToken}/push`), 409, 'mfa.not_supported_by_provider');
  });
});

describe('step-up by push on Duo', () => {
  it('an approved push gives a step-up (method push) once; a denied one gives none', async () => {
    // A fresh clock window: earlier step-ups expired.
    advance(3600);
    const denied = await m.call(BOB, 'POST', '/step-up/push', { deviceId: bobPhone });
    expect(denied.statusCode, denied.body).toBe(202);
    const deniedTx = pushTransactionSchema.parse(denied.json()).txid;
    standin.answerPush(latestPushTo(seed.bobPhone.phone_id), 'deny');
    const afterDeny = stepUpPushStatusSchema.parse((await m.call(BOB, 'GET', `/step-up/push/${deniedTx}`)).json());
    expect(afterDeny).toMatchObject({ state: 'denied', stepUp: { active: false } });
    await refusedWithoutChange(() => m.call(BOB, 'GET', `/devices/${bobPhone}/activation`), 403, 'auth.step_up_required');

    const res = await m.call(BOB, 'POST', '/step-up/push', { deviceId: bobPhone });
    const txid = pushTransactionSchema.parse(res.json()).txid;
    const waiting = stepUpPushStatusSchema.parse((await m.call(BOB, 'GET', `/step-up/push/${txid}`)).json());
    expect(waiting).toMatchObject({ state: 'waiting', stepUp: { active: false } });
    standin.answerPush(latestPushTo(seed.bobPhone.phone_id), 'allow');
    const approved = stepUpPushStatusSchema.parse((await m.call(BOB, 'GET', `/step-up/push/${txid}`)).json());
    expect(approved).toMatchObject({ state: 'approved', stepUp: { active: true, method: 'push' } });
    expect((await m.call(BOB, 'GET', `/devices/${bobPhone}/activation`)).statusCode).toBe(200);
    const events = (await auditEvents(m.db, 'step_up.push')).filter((e) => (e.details as { txid?: string }).txid === txid);
    expect(events).toHaveLength(1);
    // Polling again does not record another step-up.
    const count = await m.db
      .selectFrom('step_up')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    await m.call(BOB, 'GET', `/step-up/push/${txid}`);
    const again = await m.db
      .selectFrom('step_up')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(again.n).toBe(count.n);
  });

  it("refuses a step-up push to another user's phone (404)", async () => {
    await refusedWithoutChange(() => m.call(ALICE, 'POST', '/step-up/push', { deviceId: bobPhone }), 404, 'device.not_found');
  });
});

describe('Verified Duo Push (the tenant requires it)', () => {
  const txidOf = (res: { json(): unknown }) => startedPushSchema.parse(res.json());

  it('step-up: the code Duo gives is answered to the browser; the phone approves only with it; the step-up is this session’s', async () => {
    standin.requireVerifiedPush = true;
    try {
      advance(3600);
      const res = await m.call(BOB, 'POST', '/step-up/push', { deviceId: bobPhone });
      expect(res.statusCode, res.body).toBe(202);
      const started = txidOf(res);
      const atDuo = standin.pushes.get(latestPushTo(seed.bobPhone.phone_id))!;
      // The preauth said the portal can show a code, and its txid went with the push.
      const preauth = standin.requestsTo('POST', /^\/auth\/v2\/preauth$/).at(-1)!.params;
      expect(preauth.client_supports_verified_push).toBe('1');
      expect(standin.requestsTo('POST', /^\/auth\/v2\/auth$/).at(-1)!.params.txid).toBe(atDuo.txid);
      expect(atDuo.verificationCode).toMatch(/^\d{3}$/);
      expect(started.verificationCode).toBe(atDuo.verificationCode);
      expect(atDuo).toMatchObject({ type: 'Confirm it is you', displayUsername: BOB });

      // Approving without the code shown in the browser does not approve.
      standin.answerPush(atDuo.txid, 'allow', '000' === atDuo.verificationCode ? '001' : '000');
      const wrong = stepUpPushStatusSchema.parse((await m.call(BOB, 'GET', `/step-up/push/${started.txid}`)).json());
      expect(wrong).toMatchObject({ state: 'denied', stepUp: { active: false } });

      const again = txidOf(await m.call(BOB, 'POST', '/step-up/push', { deviceId: bobPhone }));
      const second = standin.pushes.get(latestPushTo(seed.bobPhone.phone_id))!;
      expect(again.verificationCode).toBe(second.verificationCode);
      standin.answerPush(second.txid, 'allow', again.verificationCode!);
      // Another sign-in session of bob's polls it: not found, and no step-up for that session.
      const elsewhere = await m.call(BOB, 'GET', `/step-up/push/${again.txid}`, undefined, { sid: 'bob-other-session' });
      expect(elsewhere.statusCode).toBe(404);
      const approved = stepUpPushStatusSchema.parse((await m.call(BOB, 'GET', `/step-up/push/${again.txid}`)).json());
      expect(approved).toMatchObject({ state: 'approved', stepUp: { active: true, method: 'push' } });
      const other = stepUpStatusSchema.parse((await m.call(BOB, 'GET', '/step-up', undefined, { sid: 'bob-other-session' })).json());
      expect(other.active).toBe(false);
    } finally {
      standin.requireVerifiedPush = false;
    }
  });

  it('a test push ("Check it works") is verified too, and reads as a check on the phone', async () => {
    standin.requireVerifiedPush = true;
    try {
      const res = await m.call(BOB, 'POST', `/devices/${bobPhone}/push`);
      expect(res.statusCode, res.body).toBe(202);
      const started = txidOf(res);
      const atDuo = standin.pushes.get(latestPushTo(seed.bobPhone.phone_id))!;
      expect(started.verificationCode).toBe(atDuo.verificationCode);
      expect(atDuo.type).toBe('Check this phone');
      expect(new URLSearchParams(atDuo.pushinfo!).get('action')).toBe('Check that this phone works');
      standin.answerPush(atDuo.txid, 'allow', started.verificationCode!);
      const done = pushTransactionSchema.parse((await m.call(BOB, 'GET', `/devices/${bobPhone}/push/${started.txid}`)).json());
      expect(done.state).toBe('approved');
    } finally {
      standin.requireVerifiedPush = false;
    }
  });

  it('without the policy a push is a plain one: no code to show', async () => {
    const started = txidOf(await m.call(BOB, 'POST', `/devices/${bobPhone}/push`));
    expect(started.verificationCode).toBeNull();
    expect(standin.pushes.get(latestPushTo(seed.bobPhone.phone_id))!.verificationCode).toBeNull();
  });

  it('the helpdesk’s verification push keeps its confirmation code (Admin API), policy or not', async () => {
    standin.requireVerifiedPush = true;
    try {
      const res = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${BOB}/verify-identity/push`, { deviceId: bobPhone });
      expect(res.statusCode, res.body).toBe(202);
      const push = adminVerifyPushResponseSchema.parse(res.json());
      expect(push.confirmationCode).toBe([...standin.verificationPushes.values()].at(-1)!.confirmation_code);
    } finally {
      standin.requireVerifiedPush = false;
    }
  });
});

describe('helpdesk verification push on Duo', () => {
  it('answers the confirmation code to read to the caller, then the approval; audited with the role', async () => {
    const res = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${BOB}/verify-identity/push`, { deviceId: bobPhone });
    expect(res.statusCode, res.body).toBe(202);
    const push = adminVerifyPushResponseSchema.parse(res.json());
    const atDuo = [...standin.verificationPushes.values()].at(-1)!;
    expect(push.confirmationCode).toBe(atDuo.confirmation_code);
    const url = `/api/admin/users/${BOB}/verify-identity/push/${push.txid}`;
    expect(adminVerifyPushStatusSchema.parse((await callAs(m, HELPDESK, 'GET', url)).json())).toMatchObject({
      state: 'waiting',
      verified: false,
    });
    // Another administrator cannot read it.
    const other = await callAs(m, ADMIN, 'GET', url);
    expect(other.statusCode).toBe(404);
    standin.answerVerificationPush(atDuo.push_id, 'approve');
    expect(adminVerifyPushStatusSchema.parse((await callAs(m, HELPDESK, 'GET', url)).json())).toMatchObject({
      state: 'approved',
      verified: true,
    });
    const [event] = (await auditEvents(m.db, 'admin.user.verify_identity')).slice(-1);
    expect(event).toMatchObject({ actor_upn: HELPDESK.upn, target_upn: BOB, outcome: 'success' });
    expect(event!.details).toMatchObject({ method: 'push', verified: true, role: 'helpdesk' });
  });

  it('a denied verification push is a result (verified false), audited as a failure', async () => {
    const res = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${BOB}/verify-identity/push`, { deviceId: bobPhone });
    const push = adminVerifyPushResponseSchema.parse(res.json());
    standin.answerVerificationPush([...standin.verificationPushes.values()].at(-1)!.push_id, 'deny');
    const status = adminVerifyPushStatusSchema.parse(
      (await callAs(m, HELPDESK, 'GET', `/api/admin/users/${BOB}/verify-identity/push/${push.txid}`)).json(),
    );
    expect(status).toMatchObject({ state: 'denied', verified: false });
    expect((await auditEvents(m.db, 'admin.user.verify_identity')).at(-1)).toMatchObject({ outcome: 'failure', reason: 'push.denied' });
  });

  it("counts an approved push in the lost-device progress like a right passcode (this administrator's only); a denied one not", async () => {
    advance(ADMIN_IDENTITY_CHECK_FRESH_SECONDS + 60); // the checks of the tests above are no longer recent
    const checkOf = async (who: typeof HELPDESK) => {
      const res = await callAs(m, who, 'GET', `/api/admin/users/${BOB}/lost-device`);
      expect(res.statusCode, res.body).toBe(200);
      return adminLostDeviceProgressSchema.parse(res.json()).identityCheck;
    };
    const pushAnswered = async (answer: 'approve' | 'deny') => {
      const res = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${BOB}/verify-identity/push`, {
        deviceId: bobPhone,
        ticket: 'INC-31',
      });
      expect(res.statusCode, res.body).toBe(202);
      const push = adminVerifyPushResponseSchema.parse(res.json());
      // Still waiting: nothing counts yet.
      expect(await checkOf(HELPDESK)).toBeNull();
      standin.answerVerificationPush([...standin.verificationPushes.values()].at(-1)!.push_id, answer);
      return adminVerifyPushStatusSchema.parse(
        (await callAs(m, HELPDESK, 'GET', `/api/admin/users/${BOB}/verify-identity/push/${push.txid}`)).json(),
      );
    };
    expect(await checkOf(HELPDESK)).toBeNull();
    expect(await pushAnswered('deny')).toMatchObject({ state: 'denied', verified: false });
    expect(await checkOf(HELPDESK)).toBeNull();
    const approved = await pushAnswered('approve');
    expect(approved).toMatchObject({ state: 'approved', verified: true });
    const check = await checkOf(HELPDESK);
    expect(check).toMatchObject({ deviceId: bobPhone });
    expect(Date.parse(check!.checkedAt)).toBeGreaterThanOrEqual(Date.parse(approved.startedAt));
    // Another administrator did not verify the caller.
    expect(await checkOf(ADMIN)).toBeNull();
    // Verify, then issue: the approved push lets this administrator issue codes, and the event names it.
    const issued = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${BOB}/bypass-codes`, {
      count: 1,
      validitySeconds: 600,
      reason: 'Caller verified by push',
      ticket: 'INC-31',
    });
    expect(issued.statusCode, issued.body).toBe(201);
    expect((await auditEvents(m.db, 'admin.user.create_bypass_codes')).at(-1)!.details).toMatchObject({
      verification: { method: 'push', ticket: 'INC-31' },
    });
    // No longer recent after ADMIN_IDENTITY_CHECK_FRESH_SECONDS, as a passcode check.
    advance(ADMIN_IDENTITY_CHECK_FRESH_SECONDS + 1);
    expect(await checkOf(HELPDESK)).toBeNull();
  });

  it("a push to a hardware token, or to another user's phone, is refused", async () => {
    const token = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${BOB}/verify-identity/push`, { deviceId: bobToken });
    expect(token.statusCode).toBe(409);
    const alicePhone = (await devicesOf(m, ALICE))[0]!.id;
    const other = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${BOB}/verify-identity/push`, { deviceId: alicePhone });
    expect(other.statusCode).toBe(404);
    expect(errorOf(other).code).toBe('device.not_found');
  });
});
