import {
  createECDH,
  createDecipheriv,
  createHmac,
  createPublicKey,
  randomBytes,
  randomUUID,
  verify as verifySignature,
  type KeyObject,
} from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { generate } from 'selfsigned';

/**
 * A Web Push service for tests, on loopback: what a browser vendor's push service (FCM, Mozilla
 * autopush, Apple) does for the portal, written from the RFCs so that the portal's sender (the
 * `web-push` library) is checked against the protocol rather than against itself.
 *
 * - It creates subscriptions itself ({@link PushServiceStandIn.newSubscription}) as a browser's
 *   PushManager.subscribe() would, and keeps the user agent's private key and auth secret so it can
 *   decrypt what it receives.
 * - HTTP push (RFC 8030): a POST to the subscription's endpoint, `TTL` required, 201 Created with a
 *   `Location` naming the push message resource; 410 Gone for a subscription that has gone.
 * - VAPID (RFC 8292): `Authorization: vapid t=<JWT>, k=<public key>`, the JWT signed ES256 with the key k,
 *   `aud` the endpoint's origin, `exp` in the future and at most 24 hours ahead, `sub` a mailto: or https:
 *   URI.
 * - Message encryption (RFC 8291 over RFC 8188's aes128gcm): decrypted with the subscription's keys; the
 *   payload must be one record ending with the 0x02 padding delimiter.
 *
 * Every request is recorded: {@link deliveries} (accepted, decrypted) and {@link rejections} (the status
 * and why), so a test asserts what the portal sent and how a real service would have answered it.
 * Node's `crypto` only (the TLS certificate comes from `selfsigned`, which the server already uses).
 *
 * It speaks HTTPS by default, as every real push service does, and because `web-push` sends with
 * `https.request` whatever the endpoint's scheme: the sender must trust {@link certificate} (an `https.Agent`
 * with `ca`, or `NODE_EXTRA_CA_CERTS` for a portal in another process, see {@link writeCertificate}).
 */

/** A browser's PushSubscription.toJSON(), as the portal stores it. */
export interface StandInSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
  [claim: string]: unknown;
}

export interface PushDelivery {
  /** The subscription's id (the last segment of its endpoint). */
  subscriptionId: string;
  endpoint: string;
  receivedAt: Date;
  /** The request's headers, lower-cased names. */
  headers: Record<string, string>;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  claims: VapidClaims;
  /** The application server's VAPID public key (`k`), base64url. */
  vapidPublicKey: string;
  /** The decrypted message as text, and parsed as JSON (null when it is not JSON). */
  text: string;
  payload: unknown;
  /** The push message resource given in `Location`. */
  location: string;
}

export interface PushRejection {
  subscriptionId: string | null;
  status: number;
  reason: string;
  receivedAt: Date;
}

interface HeldSubscription {
  id: string;
  ecdh: ReturnType<typeof createECDH>;
  uaPublic: Buffer;
  auth: Buffer;
  /** The applicationServerKey the subscription was made with (RFC 8292 §4): only that key may push. */
  applicationServerKey: Buffer | null;
  gone: boolean;
}

/** RFC 8030 §7.2: a push service must accept at least 4096 octets of payload; more is 413. */
export const MAX_PAYLOAD_BYTES = 4096;
/** RFC 8292 §2: the JWT's `exp` must not be more than 24 hours after the request. */
const MAX_EXP_AHEAD_SECONDS = 24 * 60 * 60;

const b64u = (b: Buffer) => b.toString('base64url');
const fromB64u = (s: string) => Buffer.from(s, 'base64url');

class Refusal extends Error {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** HKDF (RFC 5869) with SHA-256, one block: every output here is at most 32 bytes. */
function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  const prk = createHmac('sha256', salt).update(ikm).digest();
  return createHmac('sha256', prk)
    .update(Buffer.concat([info, Buffer.from([1])]))
    .digest()
    .subarray(0, length);
}

/**
 * RFC 8291 §3.4 and RFC 8188 §2: decrypts an `aes128gcm` body for a subscription. Header: salt (16),
 * rs (uint32), idlen (uint8), keyid = the sender's ephemeral ECDH public key (RFC 8291 §4: 65 octets).
 */
export function decryptAes128gcm(body: Buffer, sub: Pick<HeldSubscription, 'ecdh' | 'uaPublic' | 'auth'>): Buffer {
  if (body.length < 21) throw new Refusal(400, 'aes128gcm: shorter than its header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  // RFC 8291 §4: the keyid is the application server's uncompressed P-256 public key.
  if (idlen !== 65) throw new Refusal(400, `aes128gcm: keyid is ${idlen} octets, not an uncompressed P-256 key (65)`);
  if (body.length < 21 + idlen + 17) throw new Refusal(400, 'aes128gcm: no record after the header');
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  // RFC 8188 §2: rs at least 18; RFC 8291 §4: one record only, so it must hold the whole record.
  if (rs < 18) throw new Refusal(400, `aes128gcm: record size ${rs} below 18`);
  if (record.length > rs) throw new Refusal(400, 'aes128gcm: more than one record (RFC 8291 allows one)');
  let ecdhSecret: Buffer;
  try {
    ecdhSecret = sub.ecdh.computeSecret(asPublic);
  } catch {
    throw new Refusal(400, 'aes128gcm: keyid is not a point on P-256');
  }
  // RFC 8291 §3.3-3.4: key_info = "WebPush: info" 0x00 ua_public as_public; IKM from the auth secret.
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), sub.uaPublic, asPublic]);
  const ikm = hkdf(sub.auth, ecdhSecret, keyInfo, 32);
  // RFC 8188 §2.2-2.3: the content encryption key and the nonce from the salt.
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12); // record 0: XOR with 0
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  let padded: Buffer;
  try {
    padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  } catch {
    throw new Refusal(400, 'aes128gcm: the record does not decrypt with the subscription keys');
  }
  // RFC 8188 §2: padding is a delimiter then zeros; the last (here the only) record's delimiter is 0x02.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== 2) throw new Refusal(400, 'aes128gcm: no 0x02 padding delimiter (the last record)');
  return padded.subarray(0, end);
}

/** RFC 8292 §3: `vapid t=<JWT>, k=<key>`; checks the JWT (§2) and its signature by k. */
export function verifyVapid(
  authorization: string | undefined,
  endpointOrigin: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): { claims: VapidClaims; key: Buffer } {
  if (!authorization) throw new Refusal(401, 'no Authorization header (RFC 8292 vapid)');
  const m = /^vapid\s+(.+)$/i.exec(authorization.trim());
  if (!m) throw new Refusal(401, `Authorization is not the vapid scheme: ${authorization.split(' ')[0]}`);
  const params = Object.fromEntries(
    m[1]!.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim().toLowerCase(), p.slice(i + 1).trim()];
    }),
  );
  const t = params.t;
  const k = params.k;
  if (!t || !k) throw new Refusal(401, 'vapid: t and k are both required (RFC 8292 §3)');
  const key = fromB64u(k);
  if (key.length !== 65 || key[0] !== 4) throw new Refusal(401, 'vapid: k is not an uncompressed P-256 public key (RFC 8292 §3.2)');
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: b64u(key.subarray(1, 33)), y: b64u(key.subarray(33)) },
      format: 'jwk',
    });
  } catch {
    throw new Refusal(401, 'vapid: k is not a point on P-256');
  }
  const parts = t.split('.');
  if (parts.length !== 3) throw new Refusal(401, 'vapid: t is not a JWS compact serialisation');
  const [h, p, s] = parts as [string, string, string];
  let header: { alg?: string; typ?: string };
  let claims: VapidClaims;
  try {
    header = JSON.parse(fromB64u(h).toString('utf8'));
    claims = JSON.parse(fromB64u(p).toString('utf8'));
  } catch {
    throw new Refusal(401, 'vapid: the JWT header or claims are not JSON');
  }
  // RFC 8292 §2: signed with ECDSA on P-256 and SHA-256 (JWS "ES256", the 64-octet r‖s form).
  if (header.alg !== 'ES256') throw new Refusal(401, `vapid: alg ${String(header.alg)}, not ES256`);
  const signature = fromB64u(s);
  const ok =
    signature.length === 64 &&
    verifySignature('sha256', Buffer.from(`${h}.${p}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  if (!ok) throw new Refusal(401, 'vapid: the JWT signature does not verify with k');
  // RFC 8292 §2: aud is the push resource's origin; exp at most 24 hours ahead; sub a contact URI (§2.1).
  if (claims.aud !== endpointOrigin) throw new Refusal(401, `vapid: aud ${String(claims.aud)} is not ${endpointOrigin}`);
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) throw new Refusal(401, 'vapid: the JWT has expired (exp)');
  if (claims.exp > nowSeconds + MAX_EXP_AHEAD_SECONDS) throw new Refusal(401, 'vapid: exp more than 24 hours ahead');
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
    throw new Refusal(401, 'vapid: sub is not a mailto: or https: URI');
  return { claims, key };
}

export class PushServiceStandIn {
  readonly deliveries: PushDelivery[] = [];
  readonly rejections: PushRejection[] = [];
  private readonly subs = new Map<string, HeldSubscription>();
  private readonly sockets = new Set<Socket>();
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: http.Server,
    /** The origin of every endpoint (`https://127.0.0.1:<port>`): the VAPID `aud` a sender must use. */
    readonly url: string,
    /** The self-signed certificate (PEM) of the HTTPS listener; null over plain HTTP. */
    readonly certificate: string | null,
  ) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Listens on 127.0.0.1 (`port` 0: one the system picks), over HTTPS unless `tls` is false. */
  static async start(opts: { port?: number; tls?: boolean } = {}): Promise<PushServiceStandIn> {
    // The handler needs the instance, which needs the listening server: bound once both exist.
    const bound: { standIn?: PushServiceStandIn } = {};
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => void bound.standIn!.handle(req, res);
    let certificate: string | null = null;
    let server: http.Server;
    if (opts.tls === false) server = http.createServer(handler);
    else {
      const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
        keySize: 2048,
        days: 30,
        algorithm: 'sha256',
        extensions: [
          { name: 'basicConstraints', cA: true },
          { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true },
          { name: 'extKeyUsage', serverAuth: true },
          { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
        ],
      } as Parameters<typeof generate>[1]);
      certificate = pems.cert;
      server = https.createServer({ key: pems.private, cert: pems.cert }, handler);
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, '127.0.0.1', resolve);
    });
    const port = (server.address() as AddressInfo).port;
    bound.standIn = new PushServiceStandIn(server, `${certificate ? 'https' : 'http'}://127.0.0.1:${port}`, certificate);
    return bound.standIn;
  }

  /** Writes the certificate to `file` (for `NODE_EXTRA_CA_CERTS` of a portal started afterwards). */
  writeCertificate(file: string): void {
    if (!this.certificate) throw new Error('the stand-in runs over plain HTTP: no certificate');
    fs.writeFileSync(file, this.certificate);
  }

  /**
   * A new subscription, as PushManager.subscribe() returns it: a fresh P-256 key pair (RFC 8291 §3.1)
   * and a 16-octet auth secret (§3.2). With `applicationServerKey` (base64url), only that VAPID key may
   * push to it (RFC 8292 §4); a push signed by another key is 403.
   */
  newSubscription(opts: { applicationServerKey?: string | null } = {}): StandInSubscription {
    const ecdh = createECDH('prime256v1');
    const uaPublic = ecdh.generateKeys();
    const id = randomUUID();
    const auth = randomBytes(16);
    const applicationServerKey = opts.applicationServerKey ? fromB64u(opts.applicationServerKey) : null;
    this.subs.set(id, { id, ecdh, uaPublic, auth, applicationServerKey, gone: false });
    return { endpoint: `${this.url}/push/${id}`, expirationTime: null, keys: { p256dh: b64u(uaPublic), auth: b64u(auth) } };
  }

  /** From now on the subscription answers 410 Gone (RFC 8030 §7.3), as after the user unsubscribed. */
  markGone(endpointOrId: string): void {
    const sub = this.subs.get(endpointOrId.split('/').pop()!);
    if (!sub) throw new Error(`no such subscription: ${endpointOrId}`);
    sub.gone = true;
  }

  deliveriesTo(endpointOrId: string): PushDelivery[] {
    const id = endpointOrId.split('/').pop()!;
    return this.deliveries.filter((d) => d.subscriptionId === id);
  }

  /** Resolves with the first delivery (already received or to come) that `match` accepts. */
  async waitForDelivery(match: (d: PushDelivery) => boolean = () => true, timeoutMs = 10_000): Promise<PushDelivery> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.deliveries.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        const why = this.rejections.map((r) => `${r.status} ${r.reason}`).join('; ');
        throw new Error(`no matching push delivery in ${timeoutMs} ms${why ? ` (refused: ${why})` : ''}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Closes the listener and every open connection: a sender then gets "connection refused". */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= MAX_PAYLOAD_BYTES + 1) chunks.push(chunk);
    }
    const body = Buffer.concat(chunks);
    const id = /^\/push\/([0-9a-f-]{36})$/.exec(req.url ?? '')?.[1] ?? null;
    const reject = (status: number, reason: string) => {
      this.rejections.push({ subscriptionId: id, status, reason, receivedAt: new Date() });
      this.notify();
      res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
    };
    try {
      if (req.method !== 'POST') throw new Refusal(405, `${req.method} is not a push (RFC 8030 §5: POST)`);
      const sub = id ? this.subs.get(id) : undefined;
      if (!sub) throw new Refusal(404, 'no such subscription');
      if (sub.gone) throw new Refusal(410, 'the subscription has gone (RFC 8030 §7.3)');
      // RFC 8030 §5.2: a push without TTL is refused with 400.
      const ttlHeader = req.headers.ttl;
      if (typeof ttlHeader !== 'string' || !/^[0-9]+$/.test(ttlHeader)) throw new Refusal(400, 'TTL header missing or not a number');
      const { claims, key } = verifyVapid(req.headers.authorization, this.url);
      if (sub.applicationServerKey && !sub.applicationServerKey.equals(key))
        throw new Refusal(403, 'vapid: k is not the applicationServerKey of the subscription (RFC 8292 §4)');
      if (size > MAX_PAYLOAD_BYTES) throw new Refusal(413, `payload of ${size} octets over ${MAX_PAYLOAD_BYTES}`);
      let text = '';
      if (size > 0) {
        if (req.headers['content-encoding'] !== 'aes128gcm')
          throw new Refusal(400, `Content-Encoding ${String(req.headers['content-encoding'])}, not aes128gcm (RFC 8291 §4)`);
        text = decryptAes128gcm(body, sub).toString('utf8');
      }
      let payload: unknown = null;
      try {
        payload = JSON.parse(text);
      } catch {
        // not JSON: kept as text only
      }
      const location = `${this.url}/message/${randomUUID()}`;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      this.deliveries.push({
        subscriptionId: sub.id,
        endpoint: `${this.url}/push/${sub.id}`,
        receivedAt: new Date(),
        headers,
        ttl: Number(ttlHeader),
        urgency: headers.urgency ?? null,
        topic: headers.topic ?? null,
        claims,
        vapidPublicKey: b64u(key),
        text,
        payload,
        location,
      });
      this.notify();
      // RFC 8030 §5: 201 Created, Location the push message resource.
      res.writeHead(201, { location }).end();
    } catch (err) {
      if (err instanceof Refusal) reject(err.status, err.message);
      else reject(500, String(err));
    }
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
