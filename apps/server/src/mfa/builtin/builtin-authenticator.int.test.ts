import { createECDH, randomBytes, webcrypto } from 'node:crypto';
import { createRequire } from 'node:module';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, type Kysely, type Migration } from 'kysely';
import { answerSigningInput, type PushAnswer, type PushSubscriptionJson } from '@mfa-portal/shared';
import type { Database } from '../../db/schema.js';
import type { DatabaseHandle } from '../../db/database.js';
import { startChangeFeed } from '../../db/change-feed.js';
import { migrations } from '../../db/migrations/index.js';
import { ReadCache } from '../../lib/read-cache.js';
import { createTestDatabase } from '../../../test/database.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { totpCode } from '../common/otp.js';
import { derivePepper } from '../mfa-keys.js';
import { MfaError, type AuthenticatorApp, type MfaErrorCode, type MfaProvider } from '../port.js';
import { createBuiltinProvider, type BuiltinProviderOptions, type PushDeliveryResult } from './builtin-provider.js';
import { activationTokenHash } from './builtin-activation.js';
import { createWebPushDelivery, VAPID_SECRET_NAME } from './web-push-delivery.js';

/**
 * The builtin provider's own authenticator app, as the app and the browser see it: activation by a
 * single-use link, pushes with number matching answered with a signature of the device key (WebCrypto
 * plays the app here), the lockout a wrong number counts towards, the VAPID key pair every instance
 * shares, and Web Push to a local push-service stand-in.
 */

const KEY = Buffer.alloc(32, 0x3c);
const box = createSecretBox(KEY, 'ktest');
const keys = { box, bypassPepper: derivePepper(KEY) };
const LOCKOUT = { maxFailures: 3, lockMinutes: 10 };
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);

let handle: DatabaseHandle;
let db: Kysely<Database>;
let mfa: MfaProvider;
let app: AuthenticatorApp;
let pushService: http.Server;
let pushUrl: string;
const received: Array<{ url: string; headers: http.IncomingHttpHeaders; body: Buffer }> = [];
const deliveries: PushDeliveryResult[] = [];
let waiters: Array<(r: PushDeliveryResult) => void> = [];

const nextDelivery = () => new Promise<PushDeliveryResult>((resolve) => waiters.push(resolve));
function onPushDelivery(r: PushDeliveryResult) {
  deliveries.push(r);
  const w = waiters;
  waiters = [];
  for (const resolve of w) resolve(r);
}

function provider(extra: Partial<BuiltinProviderOptions> = {}): MfaProvider {
  return createBuiltinProvider(db, {
    keys,
    lockout: LOCKOUT,
    activationMinutes: 15,
    pushTimeoutSeconds: 60,
    webPush: { enabled: true, vapidKeys: null, subject: 'mailto:security@example.org', allowHttpEndpoints: true, timeoutMs: 3000 },
    onPushDelivery,
    ...extra,
  });
}

async function refusal(promise: Promise<unknown>): Promise<MfaErrorCode | 'resolved'> {
  try {
    await promise;
    return 'resolved';
  } catch (err) {
    if (err instanceof MfaError) return err.code;
    throw err;
  }
}

let users = 0;
async function addUser(status: 'active' | 'disabled' = 'active'): Promise<string> {
  const username = `app-user-${++users}@example.com`;
  await db.insertInto('mfa_user').values({ username, status, status_reason: null }).execute();
  return username;
}

/** A phone with the app: its device key (non-extractable, as the app keeps it) and what activation gave it. */
interface Phone {
  deviceId: string;
  secret: string;
  sign(input: string): Promise<string>;
}

async function newKeyPair() {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const jwk = await webcrypto.subtle.exportKey('jwk', pair.publicKey);
  const sign = async (input: string) =>
    Buffer.from(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, new TextEncoder().encode(input))).toString(
      'base64url',
    );
  return { publicKey: { kty: 'EC' as const, crv: 'P-256' as const, x: jwk.x!, y: jwk.y! }, sign };
}

async function activatePhone(username: string, opts: { allow?: boolean; pushSubscription?: PushSubscriptionJson } = {}): Promise<Phone> {
  const { token } = await app.startActivation(username, { allowWhenDevicesExist: opts.allow ?? true });
  const key = await newKeyPair();
  const done = await app.activate({
    token,
    publicKey: key.publicKey,
    platform: 'android',
    deviceName: 'Pixel 8',
    ...(opts.pushSubscription ? { pushSubscription: opts.pushSubscription } : {}),
  });
  return { deviceId: done.device.id, secret: done.passcodeSecret, sign: key.sign };
}

async function answer(phone: Phone, requestId: string, number: string | null, decision: 'approve' | 'deny', signer = phone) {
  const a: PushAnswer = { requestId, number, decision, time: new Date().toISOString() };
  return app.answer(phone.deviceId, { answer: a, signature: await signer.sign(answerSigningInput(a)) });
}

const requestState = async (id: string) =>
  (await db.selectFrom('mfa_push_request').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;
const failures = async (username: string) =>
  (await db.selectFrom('mfa_user').select('failed_attempts').where('username', '=', username).executeTakeFirstOrThrow()).failed_attempts;
const counts = async () => ({
  devices: (await db.selectFrom('mfa_device').select('id').execute()).length,
  keys: (await db.selectFrom('mfa_authenticator').select('device_id').execute()).length,
  used: (await db.selectFrom('mfa_authenticator_activation').select('id').where('used_at', 'is not', null).execute()).length,
});

/** A browser's subscription whose keys this test holds, so it can read what the push service received. */
function browserSubscription(path: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const subscription: PushSubscriptionJson = {
    endpoint: `${pushUrl}${path}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
  };
  const decrypt = (body: Buffer): unknown => {
    const ece = createRequire(import.meta.url)('http_ece') as { decrypt(b: Buffer, p: Record<string, unknown>): Buffer };
    return JSON.parse(
      ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth.toString('base64url') }).toString('utf8'),
    );
  };
  return { subscription, decrypt };
}

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
  mfa = provider();
  app = mfa.authenticatorApp!;
  // The push-service stand-in: /gone/… answers 410 (the browser unsubscribed), anything else 201.
  pushService = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = req.url?.startsWith('/gone/') ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  pushUrl = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => pushService.close(resolve));
  await handle.close();
});

describe('the builtin provider with its own app', () => {
  it('says it has push and the app, and no phones by number or text messages', async () => {
    expect(mfa.capabilities).toMatchObject({ push: true, authenticatorApp: true, phones: false, smsActivation: false });
    const user = await addUser();
    expect(await refusal(mfa.addPhone(user, { number: '+15555550100', platform: 'ios' }, { allowWhenDevicesExist: true }))).toBe(
      'not_supported',
    );
  });
});

describe('activation', () => {
  it('registers the phone once: a phone device of the app, its key, its passcode seed', async () => {
    const user = await addUser();
    const started = await app.startActivation(user, { allowWhenDevicesExist: false });
    expect(started.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await app.activationState(user, started.activationId)).state).toBe('waiting');
    // Only the hash of the token is stored.
    const stored = await db
      .selectFrom('mfa_authenticator_activation')
      .selectAll()
      .where('id', '=', started.activationId)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(activationTokenHash(started.token));
    expect(JSON.stringify(stored)).not.toContain(started.token);

    const key = await newKeyPair();
    const done = await app.activate({ token: started.token, publicKey: key.publicKey, platform: 'ios', deviceName: 'iPhone 15' });
    expect(done.username).toBe(user);
    expect(done.passcodeSecret).toMatch(/^[A-Z2-7]+$/);
    expect(done.device).toMatchObject({
      kind: 'phone',
      app: 'portal_authenticator',
      name: 'iPhone 15',
      platform: 'ios',
      capabilities: ['push', 'passcode'],
    });
    const state = await app.activationState(user, started.activationId);
    expect(state).toMatchObject({ state: 'activated', device: { id: done.device.id } });
    expect(await app.deviceKey(done.device.id)).toEqual({ username: user, deviceId: done.device.id, publicKey: key.publicKey });
    expect((await mfa.listDevices(user)).map((d) => d.app)).toEqual(['portal_authenticator']);

    // Single use.
    const before = await counts();
    expect(await refusal(app.activate({ token: started.token, publicKey: key.publicKey, platform: 'ios' }))).toBe('activation_used');
    expect(await counts()).toEqual(before);
  });

  it('refuses an expired link, and one of another user; the link is bound to its user', async () => {
    const user = await addUser();
    const other = await addUser();
    const old = await app.startActivation(user, { allowWhenDevicesExist: true, now: ago(16 * 60) });
    expect((await app.activationState(user, old.activationId)).state).toBe('expired');
    const key = await newKeyPair();
    const before = await counts();
    expect(await refusal(app.activate({ token: old.token, publicKey: key.publicKey, platform: 'other' }))).toBe('activation_expired');
    expect(await refusal(app.activationState(other, old.activationId))).toBe('activation_invalid');
    expect(await refusal(app.activationState(user, 'not-an-id'))).toBe('activation_invalid');
    expect(await counts()).toEqual(before);

    const fresh = await app.startActivation(user, { allowWhenDevicesExist: true });
    const done = await app.activate({ token: fresh.token, publicKey: key.publicKey, platform: 'other' });
    expect(done.username).toBe(user);
    expect(await mfa.listDevices(other)).toEqual([]);
  });

  it('applies the first-device rule when the link is made and again when it is used', async () => {
    const user = await addUser();
    const first = await app.startActivation(user, { allowWhenDevicesExist: false });
    await activatePhone(user, { allow: true });
    expect(await refusal(app.startActivation(user, { allowWhenDevicesExist: false }))).toBe('has_devices');
    const key = await newKeyPair();
    const before = await counts();
    // A device was added meanwhile: the link made as "first device" no longer adds one.
    expect(await refusal(app.activate({ token: first.token, publicKey: key.publicKey, platform: 'ios' }))).toBe('has_devices');
    expect(await counts()).toEqual(before);
    expect((await app.activationState(user, first.activationId)).state).toBe('waiting');
  });

  it('stores nothing for a malformed or unknown token, a bad key or a disabled user', async () => {
    const user = await addUser();
    const { token } = await app.startActivation(user, { allowWhenDevicesExist: true });
    const key = await newKeyPair();
    const before = await counts();
    const bad = async (input: unknown, code: MfaErrorCode, field?: string) => {
      try {
        await app.activate(input as Parameters<AuthenticatorApp['activate']>[0]);
        expect.unreachable('accepted');
      } catch (err) {
        expect(err).toBeInstanceOf(MfaError);
        expect((err as MfaError).code).toBe(code);
        if (field) expect((err as MfaError).details.field).toBe(field);
      }
    };
    await bad({ token: 'short', publicKey: key.publicKey, platform: 'ios' }, 'invalid_request', 'token');
    await bad({ token: `${token.slice(0, 42)}!`, publicKey: key.publicKey, platform: 'ios' }, 'invalid_request', 'token');
    await bad({ token: 'A'.repeat(43), publicKey: key.publicKey, platform: 'ios' }, 'activation_invalid', 'token');
    await bad({ token, publicKey: { ...key.publicKey, x: 'abc' }, platform: 'ios' }, 'invalid_request', 'publicKey.x');
    await bad({ token, publicKey: { ...key.publicKey, crv: 'P-384' }, platform: 'ios' }, 'invalid_request', 'publicKey.crv');
    await bad({ token, publicKey: key.publicKey, platform: 'symbian' }, 'invalid_request', 'platform');
    await bad({ token, publicKey: key.publicKey, platform: 'ios', pushSubscription: { endpoint: 'ftp://x', keys: {} } }, 'invalid_request');
    expect(await counts()).toEqual(before);

    const disabled = await addUser();
    const link = await app.startActivation(disabled, { allowWhenDevicesExist: true });
    await db.updateTable('mfa_user').set({ status: 'disabled' }).where('username', '=', disabled).execute();
    await bad({ token: link.token, publicKey: key.publicKey, platform: 'ios' }, 'user_disabled');
    expect(await counts()).toEqual(before);
  });
});

describe('pushes and answers', () => {
  it('shows a two-digit number, and an approval with it reads as approved, once', async () => {
    const user = await addUser();
    const phone = await activatePhone(user);
    const context = { application: 'Portal', browser: 'Firefox 128', os: 'Linux', ipAddress: '10.1.2.3', location: 'Head office' };
    const started = await mfa.startPush(user, phone.deviceId, { purpose: 'step_up', context });
    expect(started.verificationCode).toMatch(/^[1-9][0-9]$/);
    expect(await mfa.pushStatus(user, started.txid)).toEqual({ state: 'waiting', detail: null });
    const [pending] = await app.pendingRequests(phone.deviceId);
    expect(pending).toMatchObject({
      id: started.txid,
      account: user,
      deviceId: phone.deviceId,
      kind: 'step_up',
      ...context,
      requestedBy: null,
    });
    expect(JSON.stringify(pending)).not.toContain(`"${started.verificationCode}"`);

    expect(await answer(phone, started.txid, started.verificationCode, 'approve')).toEqual({
      username: user,
      state: 'approved',
      kind: 'step_up',
      justLocked: false,
    });
    expect((await mfa.pushStatus(user, started.txid)).state).toBe('approved');
    expect(await app.pendingRequests(phone.deviceId)).toEqual([]);
    expect(await refusal(answer(phone, started.txid, started.verificationCode, 'approve'))).toBe('push_already_answered');
    expect(await refusal(answer(phone, started.txid, null, 'deny'))).toBe('push_already_answered');
    expect((await mfa.listDevices(user))[0]!.lastUsedAt).not.toBeNull();
  });

  it('denies, and a denial can be reported once ("This wasn\'t me")', async () => {
    const user = await addUser();
    const phone = await activatePhone(user);
    const { txid } = await mfa.startPush(user, phone.deviceId, { purpose: 'sign_in' });
    expect(await answer(phone, txid, null, 'deny')).toMatchObject({ state: 'denied', kind: 'sign_in' });
    expect((await mfa.pushStatus(user, txid)).state).toBe('denied');
    expect(await app.answeredRequest(phone.deviceId, txid)).toMatchObject({ username: user, kind: 'sign_in', state: 'denied' });
    expect(await app.markFraud(phone.deviceId, txid)).toBe(true);
    expect(await app.markFraud(phone.deviceId, txid)).toBe(false);
    expect((await mfa.pushStatus(user, txid)).state).toBe('fraud');
    expect(await failures(user)).toBe(0);
  });

  it('refuses a wrong number: the request is denied and the failure counts, up to a lock', async () => {
    const user = await addUser();
    const phone = await activatePhone(user);
    for (let i = 1; i <= LOCKOUT.maxFailures; i++) {
      const { txid, verificationCode } = await mfa.startPush(user, phone.deviceId, { purpose: 'device_test' });
      const wrong = verificationCode === '42' ? '43' : '42';
      const err = await answer(phone, txid, wrong, 'approve').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MfaError);
      expect((err as MfaError).code).toBe('push_number_mismatch');
      expect(await requestState(txid)).toBe('denied');
      expect(await failures(user)).toBe(i);
    }
    expect((await mfa.getAccount(user))?.status).toBe('locked_out');
    expect(await refusal(mfa.startPush(user, phone.deviceId, { purpose: 'step_up' }))).toBe('user_locked_out');
  });

  it('changes nothing for a bad signature, an altered answer, an expired request, or another device', async () => {
    const user = await addUser();
    const phone = await activatePhone(user);
    const second = await activatePhone(user);
    const stranger = await activatePhone(await addUser());
    const { txid, verificationCode } = await mfa.startPush(user, phone.deviceId, { purpose: 'step_up' });
    const number = verificationCode!;

    expect(await refusal(answer(phone, txid, number, 'approve', stranger))).toBe('push_signature_invalid');
    const a: PushAnswer = { requestId: txid, number, decision: 'deny', time: new Date().toISOString() };
    const signed = await phone.sign(answerSigningInput(a));
    expect(await refusal(app.answer(phone.deviceId, { answer: { ...a, decision: 'approve' }, signature: signed }))).toBe(
      'push_signature_invalid',
    );
    expect(await refusal(app.answer(phone.deviceId, { answer: a, signature: 'A'.repeat(86) }))).toBe('push_signature_invalid');
    expect(await refusal(answer(second, txid, number, 'approve'))).toBe('push_not_found');
    expect(await refusal(answer(stranger, txid, number, 'approve'))).toBe('push_not_found');
    expect(await refusal(app.answer(phone.deviceId, { answer: { ...a, requestId: 'x' }, signature: signed }))).toBe('invalid_request');
    expect(await requestState(txid)).toBe('waiting');
    expect(await failures(user)).toBe(0);

    const late = await mfa.startPush(user, phone.deviceId, { purpose: 'step_up', now: ago(61) });
    expect(await refusal(answer(phone, late.txid, late.verificationCode, 'approve'))).toBe('push_expired');
    expect(await failures(user)).toBe(0);
    expect(await mfa.pushStatus(user, late.txid)).toEqual({ state: 'timeout', detail: 'No answer within 60 seconds' });
  });

  it("lists only a device's waiting, unexpired requests, oldest first", async () => {
    const user = await addUser();
    const phone = await activatePhone(user);
    const other = await activatePhone(user);
    await mfa.startPush(user, phone.deviceId, { purpose: 'step_up', now: ago(90) });
    const a = await mfa.startPush(user, phone.deviceId, { purpose: 'step_up', now: ago(20) });
    const b = await mfa.sendVerificationPush(user, phone.deviceId, {
      context: { application: 'Portal', browser: null, os: null, ipAddress: null, location: null, requestedBy: 'Helen Helpdesk' },
      now: ago(10),
    });
    const answered = await mfa.startPush(user, phone.deviceId, { purpose: 'device_test' });
    await answer(phone, answered.txid, null, 'deny');
    await mfa.startPush(user, other.deviceId, { purpose: 'step_up' });
    const pending = await app.pendingRequests(phone.deviceId);
    expect(pending.map((p) => [p.id, p.kind])).toEqual([
      [a.txid, 'step_up'],
      [b.pushId, 'helpdesk_check'],
    ]);
    expect(pending[1]).toMatchObject({ requestedBy: 'Helen Helpdesk' });
    expect(b.confirmationCode).toMatch(/^[1-9][0-9]$/);
    expect(await app.pendingRequests('not-a-device')).toEqual([]);
    await answer(phone, b.pushId, b.confirmationCode, 'approve');
    expect((await mfa.verificationPushResponse(user, b.pushId)).state).toBe('approved');
  });

  it('refuses a push to a phone without the app, to another user, and an unknown push', async () => {
    const user = await addUser();
    const phone = await activatePhone(user);
    const other = await addUser();
    const row = await db
      .insertInto('mfa_device')
      .values({
        user_id: (await db.selectFrom('mfa_user').select('id').where('username', '=', user).executeTakeFirstOrThrow()).id,
        kind: 'phone',
        name: 'Old',
        capabilities: ['push'],
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await refusal(mfa.startPush(user, row.id, { purpose: 'step_up' }))).toBe('not_supported');
    expect(await refusal(mfa.startPush(other, phone.deviceId, { purpose: 'step_up' }))).toBe('not_supported');
    expect(await refusal(mfa.sendVerificationPush(other, phone.deviceId))).toBe('not_supported');
    expect(await refusal(mfa.startPush(user, 'nope', { purpose: 'step_up' }))).toBe('not_supported');
    const { txid } = await mfa.startPush(user, phone.deviceId, { purpose: 'step_up' });
    expect(await refusal(mfa.pushStatus(other, txid))).toBe('push_not_found');
    expect(await refusal(mfa.pushStatus(user, 'nope'))).toBe('push_not_found');
  });

  it('verifies passcodes from the seed; removing the device takes its key and requests with it', async () => {
    const user = await addUser();
    const phone = await activatePhone(user);
    await activatePhone(user);
    expect(await mfa.verifyPasscode(user, totpCode(phone.secret, new Date()), { deviceId: phone.deviceId })).toMatchObject({
      ok: true,
      method: 'totp',
      deviceId: phone.deviceId,
    });
    await mfa.startPush(user, phone.deviceId, { purpose: 'step_up' });
    await mfa.deleteDevice(user, phone.deviceId, { allowLast: false });
    expect(await app.deviceKey(phone.deviceId)).toBeNull();
    expect(await db.selectFrom('mfa_push_request').select('id').where('device_id', '=', phone.deviceId).execute()).toEqual([]);
  });
});

describe('Web Push', () => {
  it('generates the VAPID pair once, sealed, and every instance on the database reads the same', async () => {
    await db.deleteFrom('portal_secret').where('name', '=', VAPID_SECRET_NAME).execute();
    const [a, b] = await Promise.all([provider().authenticatorApp!.vapidPublicKey(), provider().authenticatorApp!.vapidPublicKey()]);
    expect(a).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(b).toBe(a);
    const rows = await db.selectFrom('portal_secret').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.value_sealed).toMatch(/^v1\./);
    expect(await provider().authenticatorApp!.vapidPublicKey()).toBe(a);
    expect(
      await provider({ webPush: { enabled: false, vapidKeys: null, subject: 'mailto:x@example.org' } }).authenticatorApp!.vapidPublicKey(),
    ).toBeNull();
  });

  it('delivers an encrypted, VAPID-signed notice of a request to the push service', async () => {
    const user = await addUser();
    const browser = browserSubscription('/push/one');
    const phone = await activatePhone(user, { pushSubscription: browser.subscription });
    const delivered = nextDelivery();
    const { txid } = await mfa.startPush(user, phone.deviceId, { purpose: 'sign_in' });
    expect(await delivered).toEqual({ ok: true, reason: null, statusCode: 201 });
    const req = received.find((r) => r.url === '/push/one')!;
    expect(req.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]{87}$/);
    expect(req.headers.authorization).toContain(`k=${await app.vapidPublicKey()}`);
    expect(req.headers['content-encoding']).toBe('aes128gcm');
    expect(req.headers.ttl).toBe('60');
    expect(browser.decrypt(req.body)).toEqual({ type: 'push_request', requestId: txid, account: user, kind: 'sign_in' });
  });

  it('clears a subscription the push service says is gone, and never fails the push', async () => {
    const user = await addUser();
    const phone = await activatePhone(user, { pushSubscription: browserSubscription('/gone/two').subscription });
    const delivered = nextDelivery();
    const started = await mfa.startPush(user, phone.deviceId, { purpose: 'step_up' });
    expect(await delivered).toEqual({ ok: false, reason: 'gone', statusCode: 410 });
    const row = await db
      .selectFrom('mfa_authenticator')
      .select('push_subscription_sealed')
      .where('device_id', '=', phone.deviceId)
      .executeTakeFirstOrThrow();
    expect(row.push_subscription_sealed).toBeNull();
    expect((await mfa.pushStatus(user, started.txid)).state).toBe('waiting');
  });

  it('reports a push service it cannot reach, without throwing', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const subscription = { ...browserSubscription('/x').subscription, endpoint: `http://127.0.0.1:${port}/push` };
    const user = await addUser();
    const phone = await activatePhone(user);
    await app.setPushSubscription(phone.deviceId, subscription);
    const delivered = nextDelivery();
    await expect(mfa.startPush(user, phone.deviceId, { purpose: 'step_up' })).resolves.toMatchObject({ txid: expect.any(String) });
    expect(await delivered).toEqual({ ok: false, reason: 'network', statusCode: null });

    const seen: PushDeliveryResult[] = [];
    const direct = createWebPushDelivery(db, box, {
      enabled: true,
      vapidKeys: null,
      subject: 'mailto:security@example.org',
      ttlSeconds: 60,
      onDelivery: (r) => seen.push(r),
    });
    // Plain http is refused unless allowed (production never allows it).
    expect(await direct.send(subscription, { hello: 1 })).toEqual({ ok: false, reason: 'insecure_endpoint', statusCode: null });
    expect(seen).toHaveLength(1);
    expect(await refusal(app.setPushSubscription(phone.deviceId, { ...subscription, endpoint: 'nope' }))).toBe('invalid_request');
    expect(await refusal(app.setPushSubscription('00000000-0000-4000-8000-000000000000', null))).toBe('device_not_found');
  });
});

describe('answers from two instances at once', () => {
  it('accepts one answer to a request and refuses the other', async () => {
    const user = await addUser();
    const phone = await activatePhone(user);
    const other = provider().authenticatorApp!;
    const { txid, verificationCode } = await mfa.startPush(user, phone.deviceId, { purpose: 'step_up' });
    const a: PushAnswer = { requestId: txid, number: verificationCode, decision: 'approve', time: new Date().toISOString() };
    const body = { answer: a, signature: await phone.sign(answerSigningInput(a)) };
    const results = await Promise.all([app.answer(phone.deviceId, body), other.answer(phone.deviceId, body)].map(refusal));
    expect(results.sort()).toEqual(['push_already_answered', 'resolved']);
    expect(await requestState(txid)).toBe('approved');
  });
});

describe('change feed', () => {
  it("tells every instance of a new request, an answer and a used link, by the user's name", async () => {
    const user = await addUser();
    const phone = await activatePhone(user);
    const feed = startChangeFeed(handle, []);
    const cache = new ReadCache<string>({ name: 'test', maxEntries: 10, ttlMs: () => 600_000 });
    const feedWith = startChangeFeed(handle, [cache as ReadCache<unknown>]);
    try {
      for (let i = 0; i < 100 && !feedWith.listening; i++) await new Promise((r) => setTimeout(r, 50));
      const dropped = async (change: () => Promise<unknown>) => {
        expect(await feedWith.heard()).toBe(true);
        await cache.get(user, async () => 'kept');
        await change();
        expect(await feedWith.heard()).toBe(true);
        return (await cache.get(user, async () => 'fresh')) === 'fresh';
      };
      let txid = '';
      expect(await dropped(async () => ({ txid } = await mfa.startPush(user, phone.deviceId, { purpose: 'step_up' })))).toBe(true);
      expect(await dropped(() => answer(phone, txid, null, 'deny'))).toBe(true);
      expect(await dropped(() => app.startActivation(user, { allowWhenDevicesExist: true }))).toBe(true);
    } finally {
      await feedWith.stop();
      await feed.stop();
    }
  });
});

describe('migration 0019', () => {
  it('goes down and up again', async () => {
    const provider = { getMigrations: async (): Promise<Record<string, Migration>> => migrations };
    const migrator = new Migrator({ db, provider });
    // Down to the migration before it, whatever came after.
    const down = await migrator.migrateTo('0018_session_trust');
    expect(down.error).toBeUndefined();
    expect(down.results).toContainEqual(expect.objectContaining({ migrationName: '0019_authenticator_app', status: 'Success' }));
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    expect(await db.selectFrom('mfa_push_request').select('id').execute()).toEqual([]);
  });
});
