import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activateResponseSchema, authenticatorActivationSchema, pendingPushRequestsSchema } from '@mfa-portal/shared';
import { passwordStep, redeem } from '../../test/journey.js';
import { addUser, auditEvents, meTestApp, TEST_PASSWORD, type MeTestApp } from '../../test/me-api.js';
import { injectTransport, isInteractionRedirect, location, TestBrowser, type HttpResponse } from '../../test/oidc-test-client.js';
import { softwareDevice, type SoftwareDevice } from '../modules/authenticator/test/software-device.js';

/**
 * Sign-in by push at the embedded provider, through its real pages: password, then "Send a push to
 * Pixel 8", the number shown large, the software phone types it, and the sign-in completes with
 * `amr: ['pwd', 'mfa']`. A denial goes back to the second page, saying so.
 */

const UPN = 'pushy@example.com';
const API = '/authenticator/api';
let m: MeTestApp;
let phone: SoftwareDevice;

beforeAll(async () => {
  m = await meTestApp();
  await addUser(m.db, UPN);
  const started = await m.call(UPN, 'POST', '/devices/authenticator-app');
  const token = authenticatorActivationSchema.parse(started.json()).activationUrl.split('#activate=')[1]!;
  phone = await softwareDevice();
  const res = await m.t.app.inject({
    method: 'POST',
    url: `${API}/activate`,
    payload: { token, publicKey: phone.publicKey, platform: 'ios', deviceName: 'Pixel 8' },
  });
  expect(res.statusCode, res.body).toBe(201);
  phone.deviceId = activateResponseSchema.parse(res.json()).deviceId;
}, 60_000);
afterAll(async () => m?.close());

async function pendingOnPhone() {
  const res = await m.t.app.inject({
    url: `${API}/requests`,
    headers: { authorization: await phone.authorization('GET', `${API}/requests`) },
  });
  return pendingPushRequestsSchema.parse(res.json()).requests;
}

/** Password, then the push sent from the second page: the waiting page and where it is. */
async function toWaitingPage(browser: TestBrowser) {
  const step = await passwordStep(browser, m.t.config, UPN, TEST_PASSWORD);
  expect(isInteractionRedirect(step.afterPassword, m.t.config.publicUrl)).toBe(true);
  const url = location(step.afterPassword, m.t.config.publicUrl);
  const second = await browser.get(url);
  expect(second.body).toContain('Send a push to Pixel 8');
  const action = /<form method="post" action="([^"]+\/push)"/.exec(second.body)?.[1];
  expect(action).toBeDefined();
  const waiting = await browser.post(new URL(action!, url), { deviceId: phone.deviceId });
  expect(waiting.status, waiting.body.slice(0, 300)).toBe(200);
  const number = /<p class="push-number"[^>]*>([0-9]{2})<\/p>/.exec(waiting.body)?.[1];
  expect(number).toMatch(/^[0-9]{2}$/);
  expect(waiting.body).toContain('Open Portal Authenticator on Pixel 8 and type this number');
  expect(waiting.body).toMatch(/<script src="[^"]+push-login\.js" defer><\/script>/);
  const done = /<form method="post" action="([^"]+)" id="push-form" data-events-url="([^"]+)"/.exec(waiting.body)!;
  return { step, url, number: number!, action: new URL(done[1]!, url), events: done[2]! };
}

describe('sign-in by push at the embedded provider', () => {
  it('signs in once the phone approves with the number: the token shows mfa', async () => {
    const browser = new TestBrowser(injectTransport(m.t.app));
    const w = await toWaitingPage(browser);
    const [request] = await pendingOnPhone();
    expect(request).toMatchObject({ kind: 'sign_in', application: expect.any(String) });
    // Not yet answered: the page says so and waits again.
    const early = await browser.post(w.action, { number: w.number });
    expect(early.status).toBe(200);
    expect(early.body).toContain('has not been answered yet');
    const approve = await m.t.app.inject({
      method: 'POST',
      url: `${API}/requests/${request!.id}/answer`,
      headers: { authorization: await phone.authorization('POST', `${API}/requests/${request!.id}/answer`) },
      payload: await phone.answer(request!.id, 'approve', w.number),
    });
    expect(approve.statusCode, approve.body).toBe(200);
    const after: HttpResponse = await browser.post(w.action, { number: w.number });
    const { tokens } = await redeem(browser, m.t.config, after, w.step.verifier);
    expect(decodeJwt(tokens.access_token).amr).toEqual(['pwd', 'mfa']);
    const ok = (await auditEvents(m.db, 'idp.login.second_factor_ok')).at(-1)!;
    expect(ok.details).toMatchObject({ method: 'push', deviceId: phone.deviceId });
  });

  it('goes back to the second page, saying so, when the push is denied', async () => {
    const browser = new TestBrowser(injectTransport(m.t.app));
    const w = await toWaitingPage(browser);
    const [request] = await pendingOnPhone();
    await m.t.app.inject({
      method: 'POST',
      url: `${API}/requests/${request!.id}/answer`,
      headers: { authorization: await phone.authorization('POST', `${API}/requests/${request!.id}/answer`) },
      payload: await phone.answer(request!.id, 'deny', null),
    });
    const after = await browser.post(w.action, { number: w.number });
    expect(after.status).toBe(401);
    expect(after.body).toContain('The push was denied on your phone');
  });

  it("does not let another sign-in use this one's push", async () => {
    const first = new TestBrowser(injectTransport(m.t.app));
    const w = await toWaitingPage(first);
    const second = new TestBrowser(injectTransport(m.t.app));
    const other = await passwordStep(second, m.t.config, UPN, TEST_PASSWORD);
    const otherUrl = location(other.afterPassword, m.t.config.publicUrl);
    await second.get(otherUrl);
    const txid = w.action.pathname.split('/').at(-1)!;
    const stolen = await second.post(new URL(`${otherUrl.pathname}/push/${txid}`, otherUrl), { number: w.number });
    expect(stolen.status).toBe(404);
    const [request] = await pendingOnPhone();
    await m.t.app.inject({
      method: 'POST',
      url: `${API}/requests/${request!.id}/answer`,
      headers: { authorization: await phone.authorization('POST', `${API}/requests/${request!.id}/answer`) },
      payload: await phone.answer(request!.id, 'deny', null),
    });
  });
});
