import { createECDH, createPrivateKey, sign } from 'node:crypto';
import https from 'node:https';
import webpush, { type RequestOptions, WebPushError } from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_BYTES, PushServiceStandIn, type StandInSubscription } from './push-service.js';

/**
 * The Web Push stand-in against a real sender: `web-push` (what the portal sends with) encrypts and signs,
 * the stand-in checks and decrypts. Then the ways a sender gets it wrong, each answered as a real push
 * service would: a JWT that does not verify or names the wrong audience, a key the subscription was not
 * made for, a missing TTL, the wrong encoding, a payload too large, a subscription gone, a service down.
 */

let standIn: PushServiceStandIn;
let agent: https.Agent;
const vapid = webpush.generateVAPIDKeys();
const vapidDetails = { subject: 'mailto:security@example.com', publicKey: vapid.publicKey, privateKey: vapid.privateKey };

beforeAll(async () => {
  standIn = await PushServiceStandIn.start();
  agent = new https.Agent({ ca: standIn.certificate! });
});
afterAll(async () => {
  agent.destroy();
  await standIn.stop();
});

const send = (sub: StandInSubscription, payload: string | null, opts: RequestOptions = {}) =>
  webpush.sendNotification(sub, payload, { vapidDetails, TTL: 60, agent, ...opts });

/** POSTs what web-push would send, after `change` alters it: the cases web-push itself never produces. */
async function sendAltered(
  sub: StandInSubscription,
  change: (headers: Record<string, string | number>) => void,
  body?: Buffer,
): Promise<{ status: number; text: string }> {
  const details = webpush.generateRequestDetails(sub, '{"type":"push_request"}', { vapidDetails, TTL: 60 });
  const headers = { ...(details.headers as Record<string, string | number>) };
  change(headers);
  const payload = body ?? (details.body as Buffer);
  headers['Content-Length'] = payload.length;
  return new Promise((resolve, reject) => {
    const req = https.request(details.endpoint, { method: 'POST', headers, agent }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * A VAPID JWT with the given claims, naming `publicKey` in k and signed by `privateKey` (raw P-256 keys,
 * base64url). `privateKeyOwnPublicKey` is the signing key's own public half: the JWK needs it, and Node
 * 26 refuses a JWK whose public point does not belong to its private key.
 */
function vapidJwt(
  claims: Record<string, unknown>,
  publicKey = vapid.publicKey,
  privateKey = vapid.privateKey,
  privateKeyOwnPublicKey = publicKey,
): string {
  const pub = Buffer.from(privateKeyOwnPublicKey, 'base64url');
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: privateKey,
      x: pub.subarray(1, 33).toString('base64url'),
      y: pub.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${part({ typ: 'JWT', alg: 'ES256' })}.${part(claims)}`;
  const sig = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `vapid t=${input}.${sig.toString('base64url')}, k=${publicKey}`;
}
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe('a push from web-push', () => {
  it('is accepted (201 with Location), decrypted, and recorded with its headers and VAPID claims', async () => {
    const sub = standIn.newSubscription({ applicationServerKey: vapid.publicKey });
    expect(sub.endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/push\/[0-9a-f-]{36}$/);
    const payload = {
      type: 'push_request',
      requestId: '5f0b9a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
      account: 'bob@example.com',
      kind: 'sign_in',
    };
    const res = await send(sub, JSON.stringify(payload), { urgency: 'high' });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`^${standIn.url}/message/`));
    const delivery = await standIn.waitForDelivery((d) => d.endpoint === sub.endpoint);
    expect(delivery.payload).toEqual(payload);
    expect(delivery).toMatchObject({ ttl: 60, urgency: 'high', vapidPublicKey: vapid.publicKey });
    expect(delivery.headers['content-encoding']).toBe('aes128gcm');
    expect(delivery.claims).toMatchObject({ aud: standIn.url, sub: 'mailto:security@example.com' });
    expect(delivery.claims.exp).toBeGreaterThan(Date.now() / 1000);
    expect(standIn.deliveriesTo(sub.endpoint)).toHaveLength(1);
  });

  it('without a payload is accepted too (a tickle)', async () => {
    const sub = standIn.newSubscription();
    expect((await send(sub, null)).statusCode).toBe(201);
    expect(standIn.deliveriesTo(sub.endpoint)[0]).toMatchObject({ text: '', payload: null });
  });

  it('of exactly the largest payload that fits is accepted', async () => {
    const sub = standIn.newSubscription();
    // RFC 8291 §4: 4096 octets less the header (86), the padding delimiter (1) and the tag (16).
    const text = 'x'.repeat(MAX_PAYLOAD_BYTES - 86 - 1 - 16);
    expect((await send(sub, text)).statusCode).toBe(201);
    expect(standIn.deliveriesTo(sub.endpoint)[0]!.text).toBe(text);
  });
});

describe('a push the stand-in refuses', () => {
  const refusedWith = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WebPushError);
    return (err as WebPushError).statusCode;
  };

  it('401 when the JWT signature does not verify with k', async () => {
    const sub = standIn.newSubscription();
    const other = webpush.generateVAPIDKeys();
    // Signed by another key than the one it names in k.
    const res = await sendAltered(sub, (h) => {
      h.Authorization = vapidJwt(
        { aud: standIn.url, exp: inAnHour(), sub: 'mailto:a@example.com' },
        vapid.publicKey,
        other.privateKey,
        other.publicKey,
      );
    });
    expect(res).toMatchObject({ status: 401, text: expect.stringContaining('signature') });
    expect(standIn.deliveriesTo(sub.endpoint)).toEqual([]);
  });

  it('401 for a JWT whose aud is another origin, that has expired, that runs past 24 hours, or has no contact', async () => {
    const sub = standIn.newSubscription();
    const now = Math.floor(Date.now() / 1000);
    const cases: [Record<string, unknown>, string][] = [
      [{ aud: 'https://push.example.net', exp: inAnHour(), sub: 'mailto:a@example.com' }, 'aud'],
      [{ aud: standIn.url, exp: now - 5, sub: 'mailto:a@example.com' }, 'expired'],
      [{ aud: standIn.url, exp: now + 25 * 3600, sub: 'mailto:a@example.com' }, '24 hours'],
      [{ aud: standIn.url, exp: inAnHour(), sub: 'someone' }, 'sub'],
    ];
    for (const [claims, why] of cases) {
      const res = await sendAltered(sub, (h) => (h.Authorization = vapidJwt(claims)));
      expect(res, why).toMatchObject({ status: 401, text: expect.stringContaining(why) });
    }
    const noAuth = await sendAltered(sub, (h) => delete h.Authorization);
    expect(noAuth.status).toBe(401);
    expect(standIn.deliveriesTo(sub.endpoint)).toEqual([]);
  });

  it('403 when the VAPID key is not the one the subscription was made for', async () => {
    const sub = standIn.newSubscription({ applicationServerKey: vapid.publicKey });
    const other = webpush.generateVAPIDKeys();
    const status = await refusedWith(
      send(sub, '{}', {
        vapidDetails: { subject: 'https://portal.example.com/', publicKey: other.publicKey, privateKey: other.privateKey },
      }),
    );
    expect(status).toBe(403);
  });

  it('400 without TTL, with another content encoding, or with a record that does not decrypt', async () => {
    const sub = standIn.newSubscription();
    expect((await sendAltered(sub, (h) => delete h.TTL)).status).toBe(400);
    expect((await sendAltered(sub, (h) => (h['Content-Encoding'] = 'aesgcm'))).status).toBe(400);
    const details = webpush.generateRequestDetails(sub, '{"a":1}', { vapidDetails, TTL: 60 });
    const tampered = Buffer.from(details.body as Buffer);
    tampered[tampered.length - 1]! ^= 1;
    expect(await sendAltered(sub, () => {}, tampered)).toMatchObject({ status: 400, text: expect.stringContaining('decrypt') });
    // Encrypted for another subscription's keys.
    const elsewhere = webpush.generateRequestDetails(standIn.newSubscription(), '{"a":1}', { vapidDetails, TTL: 60 });
    expect((await sendAltered(sub, () => {}, elsewhere.body as Buffer)).status).toBe(400);
    // A keyid that is not a P-256 point.
    const badKey = Buffer.from(details.body as Buffer);
    badKey.fill(7, 21, 21 + 65);
    expect((await sendAltered(sub, () => {}, badKey)).status).toBe(400);
    expect(standIn.deliveriesTo(sub.endpoint)).toEqual([]);
  });

  it('413 over 4096 octets', async () => {
    const sub = standIn.newSubscription();
    expect(await refusedWith(send(sub, 'x'.repeat(MAX_PAYLOAD_BYTES)))).toBe(413);
  });

  it('404 for an endpoint it never made, 410 once the subscription has gone', async () => {
    const sub = standIn.newSubscription();
    const unknown = { ...sub, endpoint: `${standIn.url}/push/00000000-0000-4000-8000-000000000000` };
    expect(await refusedWith(send(unknown, '{}'))).toBe(404);
    standIn.markGone(sub.endpoint);
    expect(await refusedWith(send(sub, '{}'))).toBe(410);
    expect(standIn.rejections.at(-1)).toMatchObject({ status: 410 });
  });

  it('nothing at all once stopped: the connection is refused', async () => {
    const other = await PushServiceStandIn.start();
    const sub = other.newSubscription();
    const otherAgent = new https.Agent({ ca: other.certificate! });
    expect((await send(sub, '{}', { agent: otherAgent })).statusCode).toBe(201);
    await other.stop();
    await expect(send(sub, '{}', { agent: otherAgent })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    otherAgent.destroy();
  });
});

describe('the stand-in over plain HTTP', () => {
  it('makes http endpoints (for a sender that posts with fetch)', async () => {
    const plain = await PushServiceStandIn.start({ tls: false });
    try {
      const sub = plain.newSubscription();
      expect(sub.endpoint.startsWith('http://127.0.0.1:')).toBe(true);
      const details = webpush.generateRequestDetails(sub, '{"ok":true}', { vapidDetails, TTL: 30 });
      const res = await fetch(details.endpoint, {
        method: 'POST',
        headers: details.headers as Record<string, string>,
        body: details.body as Buffer,
      });
      expect(res.status).toBe(201);
      expect(plain.deliveriesTo(sub.endpoint)[0]).toMatchObject({ payload: { ok: true }, ttl: 30 });
      // The subscription's key is a real P-256 point (a sender would refuse anything else).
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      expect(() => ecdh.computeSecret(Buffer.from(sub.keys.p256dh, 'base64url'))).not.toThrow();
    } finally {
      await plain.stop();
    }
  });
});
