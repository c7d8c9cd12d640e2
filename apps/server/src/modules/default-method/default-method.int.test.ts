import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activateResponseSchema,
  authenticatorActivationSchema,
  defaultMethodResponseSchema,
  deviceSchema,
  totpEnrolmentResponseSchema,
  type DefaultMethodResponse,
} from '@mfa-portal/shared';
import { passwordStep } from '../../../test/journey.js';
import { addUser, auditEvents, errorOf, meTestApp, TEST_PASSWORD, totpAt, type MeTestApp } from '../../../test/me-api.js';
import { injectTransport, location, TestBrowser } from '../../../test/oidc-test-client.js';
import { softwareDevice } from '../authenticator/test/software-device.js';

/**
 * The default sign-in method (`/api/me/default-method`) on the builtin provider with the embedded
 * sign-in: what can be chosen and in which order, choosing (audited, per person, from any session),
 * refusals (bad input, another person's device), what happens when the chosen device is removed, and
 * the sign-in page offering the default first.
 */

let m: MeTestApp;

/**
 * A person whose first device is a phone in Portal Authenticator ("Pixel 8"), with an authenticator app
 * ("Work app") added after it, after a step-up with the phone's passcode (fresh for the rest of the test).
 */
async function personWithPhoneAndApp(upn: string) {
  const userId = (await addUser(m.db, upn))!;
  const started = await m.call(upn, 'POST', '/devices/authenticator-app');
  const token = authenticatorActivationSchema.parse(started.json()).activationUrl.split('#activate=')[1]!;
  const phone = await softwareDevice();
  const res = await m.t.app.inject({
    method: 'POST',
    url: '/authenticator/api/activate',
    payload: { token, publicKey: phone.publicKey, platform: 'android', deviceName: 'Pixel 8' },
  });
  expect(res.statusCode, res.body).toBe(201);
  const activated = activateResponseSchema.parse(res.json());
  const stepUp = await m.call(upn, 'POST', '/step-up', { method: 'passcode', code: totpAt(activated.passcode.secret) });
  expect(stepUp.statusCode, stepUp.body).toBe(200);
  const enrolment = totpEnrolmentResponseSchema.parse((await m.call(upn, 'POST', '/devices/authenticator')).json());
  const app = await m.call(upn, 'POST', `/devices/authenticator/${enrolment.enrolmentId}/confirm`, {
    code: totpAt(enrolment.secret),
    name: 'Work app',
  });
  expect(app.statusCode, app.body).toBe(201);
  return { userId, phoneId: activated.deviceId, appId: deviceSchema.parse(app.json()).id };
}

const read = async (upn: string, sid?: string): Promise<DefaultMethodResponse> => {
  const res = await m.call(upn, 'GET', '/default-method', undefined, sid ? { sid } : {});
  expect(res.statusCode, res.body).toBe(200);
  return defaultMethodResponseSchema.parse(res.json());
};
const stored = (upn: string) => m.db.selectFrom('default_sign_in_method').selectAll().where('upn', '=', upn).execute();

/** The second page of a sign-in of `upn`, as the browser gets it after the password. */
async function secondPage(upn: string): Promise<string> {
  const browser = new TestBrowser(injectTransport(m.t.app));
  const step = await passwordStep(browser, m.t.config, upn, TEST_PASSWORD);
  const page = await browser.get(location(step.afterPassword, m.t.config.publicUrl));
  expect(page.status).toBe(200);
  return page.body;
}
/** Where on the page the passcode field and the first push button are, and which of them has the focus. */
function layoutOf(html: string) {
  const passcode = html.indexOf('<input id="passcode"');
  const push = html.indexOf('Send a push to');
  const focused = /<input id="passcode"[^>]*autofocus/.test(html)
    ? 'passcode'
    : /<button type="submit" autofocus>Send a push/.test(html)
      ? 'push'
      : null;
  return { passcodeFirst: passcode >= 0 && (push < 0 || passcode < push), focused };
}

beforeAll(async () => {
  m = await meTestApp();
}, 60_000);
afterAll(async () => m?.close());

describe('GET /api/me/default-method', () => {
  it('lists every way the person can sign in, safest first, and offers the safest until they choose', async () => {
    const upn = 'dm-order@example.com';
    const { userId, phoneId, appId } = await personWithPhoneAndApp(upn);
    const passkey = await m.db
      .insertInto('mfa_device')
      .values({ user_id: userId, kind: 'passkey', name: 'Laptop', capabilities: ['webauthn'] })
      .returning('id')
      .executeTakeFirstOrThrow();
    const answer = await read(upn);
    expect(answer).toEqual({
      decidedBy: 'portal',
      current: { deviceId: passkey.id, method: 'webauthn' },
      source: 'recommended',
      choices: [
        { deviceId: passkey.id, method: 'webauthn' },
        { deviceId: phoneId, method: 'push' },
        { deviceId: phoneId, method: 'passcode' },
        { deviceId: appId, method: 'passcode' },
      ],
    });
  });

  it('offers nothing to a person with no device', async () => {
    await addUser(m.db, 'dm-none@example.com');
    expect(await read('dm-none@example.com')).toEqual({ decidedBy: 'portal', current: null, source: 'recommended', choices: [] });
  });
});

describe('PUT /api/me/default-method', () => {
  beforeAll(async () => {
    await personWithPhoneAndApp('dm-bad@example.com');
  });

  it('keeps the choice per person, audited with it, and another session of the person sees and changes it', async () => {
    const upn = 'dm-choose@example.com';
    const { phoneId, appId } = await personWithPhoneAndApp(upn);
    const res = await m.call(upn, 'PUT', '/default-method', { deviceId: appId, method: 'passcode' });
    expect(res.statusCode, res.body).toBe(200);
    expect(defaultMethodResponseSchema.parse(res.json())).toMatchObject({
      current: { deviceId: appId, method: 'passcode' },
      source: 'chosen',
    });
    const [event] = await auditEvents(m.db, 'device.set_default');
    expect(event).toMatchObject({ outcome: 'success', target_upn: upn, details: { deviceId: appId, method: 'passcode' } });
    // The device's name, for the person's activity.
    expect(event!.details).toHaveProperty('deviceName', expect.any(String));

    // Another sign-in of the same person: the same choice (it belongs to the person, not to a session).
    expect(await read(upn, 'another-session')).toMatchObject({ current: { deviceId: appId, method: 'passcode' }, source: 'chosen' });
    const again = await m.call(upn, 'PUT', '/default-method', { deviceId: phoneId, method: 'push' }, { sid: 'another-session' });
    expect(again.statusCode).toBe(200);
    expect(await read(upn)).toMatchObject({ current: { deviceId: phoneId, method: 'push' }, source: 'chosen' });
    expect(await stored(upn)).toHaveLength(1);
  });

  it.each([
    ['a device id that is not one', { deviceId: 'abc', method: 'passcode' }, 'deviceId'],
    ['an unknown method', { deviceId: '6f1d3c1e-8a59-4d7f-9a51-2d2a3c8f0b11', method: 'sms' }, 'method'],
    ['no method', { deviceId: '6f1d3c1e-8a59-4d7f-9a51-2d2a3c8f0b11' }, 'method'],
  ])('refuses %s with request.invalid naming the field, changing nothing', async (_what, body, field) => {
    const upn = 'dm-bad@example.com';
    const before = await stored(upn);
    const res = await m.call(upn, 'PUT', '/default-method', body);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'request.invalid', details: { field } });
    expect(await stored(upn)).toEqual(before);
  });

  it('refuses a way the device cannot be used (a push to an authenticator app) with the field', async () => {
    const upn = 'dm-push-app@example.com';
    const { appId } = await personWithPhoneAndApp(upn);
    const res = await m.call(upn, 'PUT', '/default-method', { deviceId: appId, method: 'push' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'request.invalid', details: { field: 'method' } });
    expect(await stored(upn)).toEqual([]);
    const failed = (await auditEvents(m.db, 'device.set_default')).filter((e) => e.target_upn === upn);
    expect(failed).toMatchObject([{ outcome: 'failure', reason: 'request.invalid' }]);
  });

  it("answers another person's device as not found, and stores nothing", async () => {
    const owner = await personWithPhoneAndApp('dm-owner@example.com');
    const upn = 'dm-other@example.com';
    await personWithPhoneAndApp(upn);
    const res = await m.call(upn, 'PUT', '/default-method', { deviceId: owner.appId, method: 'passcode' });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe('device.not_found');
    expect(await stored(upn)).toEqual([]);
    expect(await stored('dm-owner@example.com')).toEqual([]);
  });
});

describe('the default at sign-in', () => {
  it('puts the default first on the second page (the push, or the passcode field), with the focus', async () => {
    const upn = 'dm-idp@example.com';
    const { appId, phoneId } = await personWithPhoneAndApp(upn);
    // Never chosen: the push (safer than a passcode) comes first.
    expect(layoutOf(await secondPage(upn))).toEqual({ passcodeFirst: false, focused: 'push' });

    await m.call(upn, 'PUT', '/default-method', { deviceId: appId, method: 'passcode' });
    expect(layoutOf(await secondPage(upn))).toEqual({ passcodeFirst: true, focused: 'passcode' });

    await m.call(upn, 'PUT', '/default-method', { deviceId: phoneId, method: 'push' });
    const page = await secondPage(upn);
    expect(layoutOf(page)).toEqual({ passcodeFirst: false, focused: 'push' });
    expect(page).toContain('Send a push to Pixel 8');
  });

  it('after a wrong code, the passcode field comes first again whatever the default', async () => {
    const upn = 'dm-wrong@example.com';
    const { phoneId } = await personWithPhoneAndApp(upn);
    await m.call(upn, 'PUT', '/default-method', { deviceId: phoneId, method: 'push' });
    const browser = new TestBrowser(injectTransport(m.t.app));
    const step = await passwordStep(browser, m.t.config, upn, TEST_PASSWORD);
    const url = location(step.afterPassword, m.t.config.publicUrl);
    const page = await browser.get(url);
    const action = /<form[^>]*action="([^"]+\/verify)"/.exec(page.body)![1]!;
    const wrong = await browser.post(new URL(action, url), { passcode: '000000' });
    expect(wrong.status).toBe(401);
    expect(layoutOf(wrong.body)).toEqual({ passcodeFirst: true, focused: 'passcode' });
    // "Use a passcode instead" (from the page waiting for a push) asks for the field first too.
    const instead = await browser.get(new URL(`${url.pathname}?with=passcode`, url));
    expect(layoutOf(instead.body)).toEqual({ passcodeFirst: true, focused: 'passcode' });
  });

  it('when the chosen device is removed, offers the safest one left and says the choice was replaced', async () => {
    const upn = 'dm-removed@example.com';
    const { appId, phoneId } = await personWithPhoneAndApp(upn);
    await m.call(upn, 'PUT', '/default-method', { deviceId: appId, method: 'passcode' });
    // The step-up of the app's enrolment is still fresh.
    const removed = await m.call(upn, 'DELETE', `/devices/${appId}`);
    expect(removed.statusCode, removed.body).toBe(204);

    expect(await read(upn)).toMatchObject({ current: { deviceId: phoneId, method: 'push' }, source: 'replaced' });
    expect(layoutOf(await secondPage(upn))).toEqual({ passcodeFirst: false, focused: 'push' });
    // Choosing again makes it theirs once more.
    await m.call(upn, 'PUT', '/default-method', { deviceId: phoneId, method: 'passcode' });
    expect(await read(upn)).toMatchObject({ current: { deviceId: phoneId, method: 'passcode' }, source: 'chosen' });
  });
});
