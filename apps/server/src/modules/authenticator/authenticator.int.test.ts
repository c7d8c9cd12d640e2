import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  activateResponseSchema,
  authenticatorActivationSchema,
  authenticatorActivationStateSchema,
  pendingPushRequestsSchema,
  type PushAnswerBody,
} from '@mfa-portal/shared';
import { addUser, auditEvents, errorOf, meTestApp, type MeTestApp } from '../../../test/me-api.js';
import { readEvents, softwareDevice, type SoftwareDevice } from './test/software-device.js';

const ALICE = 'alice@example.com';
const ZOE = 'zoe@example.com';
const API = '/authenticator/api';

let m: MeTestApp;
let base = '';
/** Alice's app, activated by the first tests. */
let alice: SoftwareDevice;

beforeAll(async () => {
  m = await meTestApp();
  await addUser(m.db, ZOE);
  await m.t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(m.t.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  // Keep-alive sockets of the test's fetches would hold the server's close.
  m?.t.app.server.closeAllConnections();
  await m?.close();
}, 60_000);

const app = (device: SoftwareDevice | null, method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
  (async () =>
    m.t.app.inject({
      method,
      url: `${API}${path}`,
      headers: device ? { authorization: await device.authorization(method, `${API}${path}`) } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    }))();

async function activate(upn: string): Promise<{ device: SoftwareDevice; activationId: string }> {
  const started = await m.call(upn, 'POST', '/devices/authenticator-app');
  expect(started.statusCode, started.body).toBe(201);
  const activation = authenticatorActivationSchema.parse(started.json());
  const token = activation.activationUrl.split('#activate=')[1]!;
  const device = await softwareDevice();
  const res = await app(null, 'POST', '/activate', { token, publicKey: device.publicKey, platform: 'android', deviceName: 'Pixel 8' });
  expect(res.statusCode, res.body).toBe(201);
  device.deviceId = activateResponseSchema.parse(res.json()).deviceId;
  return { device, activationId: activation.activationId };
}

async function pending(device: SoftwareDevice) {
  const res = await app(device, 'GET', '/requests');
  expect(res.statusCode, res.body).toBe(200);
  return pendingPushRequestsSchema.parse(res.json()).requests;
}

const answer = (device: SoftwareDevice, id: string, body: PushAnswerBody) => app(device, 'POST', `/requests/${id}/answer`, body);

async function testPush(upn: string, deviceId: string) {
  const res = await m.call(upn, 'POST', `/devices/${deviceId}/push`);
  expect(res.statusCode, res.body).toBe(202);
  const body = res.json<{ txid: string; verificationCode: string }>();
  expect(body.verificationCode).toMatch(/^[1-9][0-9]$/);
  return body;
}

const wrong = (n: string) => String(((Number(n) - 10 + 1) % 90) + 10);

describe('activation (POST/GET /api/me/devices/authenticator-app, POST authenticator/api/activate)', () => {
  let token = '';
  let activationId = '';
  const device = softwareDevice();

  it('starts a first device without step-up: a link with the token in its fragment, and its QR code', async () => {
    const res = await m.call(ALICE, 'POST', '/devices/authenticator-app');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const a = authenticatorActivationSchema.parse(res.json());
    expect(a.activationUrl).toMatch(new RegExp(`^${m.t.config.publicUrl}authenticator/#activate=[A-Za-z0-9_-]{43}$`));
    expect(a.qrSvg).toMatch(/<svg/);
    token = a.activationUrl.split('#activate=')[1]!;
    activationId = a.activationId;
    const state = await m.call(ALICE, 'GET', `/devices/authenticator-app/${activationId}`);
    expect(authenticatorActivationStateSchema.parse(state.json())).toMatchObject({ state: 'waiting', device: null });
  });

  it("answers another user's activation as not found", async () => {
    const res = await m.call('bob@example.com', 'GET', `/devices/authenticator-app/${activationId}`);
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe('authenticator.activation_invalid');
  });

  it('refuses a malformed or unknown link and stores nothing', async () => {
    const d = await device;
    const before = await m.db.selectFrom('mfa_device').select('id').execute();
    const malformed = await app(null, 'POST', '/activate', { token: 'short', publicKey: d.publicKey, platform: 'android' });
    expect(malformed.statusCode).toBe(400);
    expect(errorOf(malformed).details?.field).toMatch(/token/);
    const unknown = await app(null, 'POST', '/activate', { token: 'A'.repeat(43), publicKey: d.publicKey, platform: 'android' });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).code).toBe('authenticator.activation_invalid');
    expect(await m.db.selectFrom('mfa_device').select('id').execute()).toEqual(before);
  });

  it('activates once: the device key, its name, the passcode seed; a reused link is refused', async () => {
    const d = await device;
    const body = { token, publicKey: d.publicKey, platform: 'android', deviceName: 'Pixel 8' };
    const res = await app(null, 'POST', '/activate', body);
    expect(res.statusCode, res.body).toBe(201);
    const activated = activateResponseSchema.parse(res.json());
    expect(activated.account.upn).toBe(ALICE);
    d.deviceId = activated.deviceId;
    alice = d;
    expect(activated.passcode.secret).toMatch(/^[A-Z2-7]+$/);
    const again = await app(null, 'POST', '/activate', body);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('authenticator.activation_used');
    const state = authenticatorActivationStateSchema.parse(
      (await m.call(ALICE, 'GET', `/devices/authenticator-app/${activationId}`)).json(),
    );
    expect(state.state).toBe('activated');
    expect(state.device).toMatchObject({ id: activated.deviceId, kind: 'phone', app: 'portal_authenticator', name: 'Pixel 8' });
    const events = await auditEvents(m.db, 'device.activate_app');
    expect(events.filter((e) => e.outcome === 'success').at(-1)).toMatchObject({ target_upn: ALICE });
    expect(events.at(-1)).toMatchObject({ outcome: 'failure', reason: 'authenticator.activation_used' });
  });

  it('needs a step-up for another device once one exists', async () => {
    const res = await m.call(ALICE, 'POST', '/devices/authenticator-app');
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('auth.step_up_required');
  });
});

describe('the app API (device-signed)', () => {
  let zoe: SoftwareDevice;

  beforeAll(async () => {
    ({ device: zoe } = await activate(ZOE));
  });

  it('serves info without a signature, and refuses every other route without one', async () => {
    const info = await app(null, 'GET', '/info');
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ pushTimeoutSeconds: 60 });
    for (const [method, path] of [
      ['GET', '/requests'],
      ['GET', '/events'],
      ['POST', '/requests/00000000-0000-4000-8000-000000000000/answer'],
      ['POST', '/requests/00000000-0000-4000-8000-000000000000/report'],
      ['PUT', '/push-subscription'],
    ] as const) {
      const res = await app(null, method, path, method === 'GET' ? undefined : {});
      expect(res.statusCode, `${method} ${path}`).toBe(401);
      expect(errorOf(res).code).toBe('authenticator.device_unauthorized');
    }
    const forged = await m.t.app.inject({
      method: 'GET',
      url: `${API}/requests`,
      headers: { authorization: await zoe.authorization('GET', `${API}/events`) },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('approves a push with the right number; a wrong number, a bad signature, a second answer and another device are refused', async () => {
    const zoeDevice = zoe.deviceId;
    const started = await testPush(ZOE, zoeDevice);
    const [request] = await pending(zoe);
    expect(request).toMatchObject({ kind: 'device_test', deviceId: zoeDevice, application: expect.any(String) });
    expect(JSON.stringify(request)).not.toContain(`"${started.verificationCode}"`);

    // A bad signature: refused, nothing changes.
    const forged = await zoe.answer(request!.id, 'approve', started.verificationCode);
    const bad = await answer(zoe, request!.id, { ...forged, signature: (await zoe.answer(request!.id, 'deny', null)).signature });
    expect(bad.statusCode).toBe(401);
    expect(errorOf(bad).code).toBe('push.signature_invalid');
    expect(await pending(zoe)).toHaveLength(1);

    // Another user's device: the request is not theirs.
    const other = await answer(alice, request!.id, await alice.answer(request!.id, 'approve', started.verificationCode));
    expect(other.statusCode).toBe(404);
    expect(errorOf(other).code).toBe('push.not_found');

    const ok = await answer(zoe, request!.id, forged);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ state: 'approved', reportable: false });
    const status = await m.call(ZOE, 'GET', `/devices/${zoeDevice}/push/${started.txid}`);
    expect(status.json()).toMatchObject({ state: 'approved' });

    const twice = await answer(zoe, request!.id, await zoe.answer(request!.id, 'approve', started.verificationCode));
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice).code).toBe('push.already_answered');

    const approved = (await auditEvents(m.db, 'push.approve')).filter((e) => e.outcome === 'success').at(-1)!;
    expect(approved).toMatchObject({ outcome: 'success', target_upn: ZOE });
    expect(approved.details).toMatchObject({ deviceId: zoeDevice, deviceName: 'Pixel 8', app: 'portal_authenticator' });

    // A wrong number: refused, the request is denied, and it counts like a wrong passcode.
    const next = await testPush(ZOE, zoeDevice);
    const [second] = await pending(zoe);
    const mismatch = await answer(zoe, second!.id, await zoe.answer(second!.id, 'approve', wrong(next.verificationCode)));
    expect(mismatch.statusCode).toBe(403);
    expect(errorOf(mismatch).code).toBe('push.number_mismatch');
    expect(await pending(zoe)).toHaveLength(0);
    expect((await m.call(ZOE, 'GET', `/devices/${zoeDevice}/push/${next.txid}`)).json()).toMatchObject({ state: 'denied' });
    expect((await auditEvents(m.db, 'push.approve')).at(-1)).toMatchObject({ outcome: 'failure', reason: 'push.number_mismatch' });
  });

  it('refuses an answer after the push expired', async () => {
    const started = await testPush(ZOE, zoe.deviceId);
    const [request] = await pending(zoe);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      const late = await answer(zoe, request!.id, await zoe.answer(request!.id, 'approve', started.verificationCode));
      expect(late.statusCode).toBe(410);
      expect(errorOf(late).code).toBe('push.expired');
    } finally {
      vi.useRealTimers();
    }
  });

  it('denies, then reports "This wasn\'t me" once: the existing activity report is filed', async () => {
    await testPush(ALICE, alice.deviceId);
    const [request] = await pending(alice);
    const denied = await answer(alice, request!.id, await alice.answer(request!.id, 'deny', null));
    expect(denied.json()).toEqual({ state: 'denied', reportable: true });
    const report = await app(alice, 'POST', `/requests/${request!.id}/report`);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toEqual({ reported: true });
    const filed = (await auditEvents(m.db, 'activity.report')).at(-1)!;
    const denial = (await auditEvents(m.db, 'push.deny')).at(-1)!;
    expect(filed.details).toMatchObject({ reportedEventId: String(denial.id), reportedAction: 'push.deny' });
    const again = await app(alice, 'POST', `/requests/${request!.id}/report`);
    expect(again.statusCode).toBe(409);
  });

  it('tells the app over SSE (request, then closed) and the waiting browser (state)', async () => {
    const path = `${API}/events`;
    const stream = await readEvents(`${base}${path}`, { authorization: await alice.authorization('GET', path) });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    const started = await testPush(ALICE, alice.deviceId);
    const browser = await readEvents(`${base}/api/me/push/${started.txid}/events`, {
      authorization: `Bearer ${await m.token(ALICE)}`,
    });
    expect(browser.status).toBe(200);
    const [first] = await stream.waitFor(1);
    expect(first).toMatchObject({ event: 'request', data: { kind: 'device_test' } });
    const id = (first!.data as { id: string }).id;
    await answer(alice, id, await alice.answer(id, 'approve', started.verificationCode));
    expect((await stream.waitFor(2))[1]).toEqual({ event: 'closed', data: { id, state: 'approved' } });
    expect(await browser.waitFor(1)).toEqual([{ event: 'state', data: { state: 'approved' } }]);
    await stream.close();
    await browser.close();
  });

  it("does not tell another session's browser about a push", async () => {
    const started = await testPush(ALICE, alice.deviceId);
    const other = await m.t.app.inject({
      url: `/api/me/push/${started.txid}/events`,
      headers: { authorization: `Bearer ${await m.token(ALICE, [], { sid: 'another-session' })}` },
    });
    expect(other.statusCode).toBe(404);
    const [request] = await pending(alice);
    await answer(alice, request!.id, await alice.answer(request!.id, 'deny', null));
  });

  it('bounds the pushes a user gets (push fatigue): 429 with Retry-After', async () => {
    let res;
    for (let i = 0; i < 6; i++) {
      res = await m.call(ZOE, 'POST', `/devices/${zoe.deviceId}/push`);
      if (res.statusCode === 429) break;
    }
    expect(res!.statusCode).toBe(429);
    expect(errorOf(res!).code).toBe('request.rate_limited');
    expect(Number(res!.headers['retry-after'])).toBeGreaterThan(0);
  });
});
