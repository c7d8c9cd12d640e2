import { createHmac, webcrypto } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import {
  AUTHENTICATOR_API_PATH,
  AUTHENTICATOR_APP_PATH,
  answerSigningInput,
  deviceAuthHeader,
  deviceAuthSigningInput,
  type ActivateResponse,
  type AuthenticatorInfo,
  type DevicePublicKey,
  type PendingPushRequest,
  type PushAnswer,
  type PushAnswerResponse,
  type PushSubscriptionJson,
} from '@mfa-portal/shared';

/**
 * A software phone: what the portal's authenticator app does, without a browser, for tests, the bench
 * and the `demo:phone` terminal tool. It holds an ECDSA P-256 device key (WebCrypto, as the app), activates
 * with an activation link, signs every call to the app's API (`Authorization: PortalDevice …`), lists the
 * pending pushes, follows the server-sent events stream, answers with the number (signed) or denies,
 * reports a denial ("This wasn't me"), and shows the account's passcode (TOTP).
 *
 * The key is non-extractable unless `extractable` is asked for (the demo tool keeps it in a file; the real
 * app never can). HTTP goes through node:http(s) so that a portal on loopback with its own self-signed
 * certificate can be reached: the certificate is checked except on a loopback host, or against `ca`.
 */

export interface PhoneTls {
  /** Trust these certificates (PEM) for the portal. */
  ca?: string | string[];
  /** Check the portal's certificate even on loopback (default: not on localhost / 127.0.0.1 / ::1). */
  strictLoopback?: boolean;
}

/** What `save()` writes and `restore()` reads: enough to be the same phone again. */
export interface SavedPhone {
  /** The app's address, `<public url><base>authenticator/`. */
  appUrl: string;
  deviceId: string;
  account: ActivateResponse['account'];
  passcode: ActivateResponse['passcode'];
  deviceName: string;
  /** The device key as a JWK (private half included: keep the file private). */
  privateJwk: webcrypto.JsonWebKey;
}

export type PhoneEvent = { event: 'request'; request: PendingPushRequest } | { event: 'closed'; id: string; state: string };

export class PhoneApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: ${status}${code ? ` ${code}` : ''}`);
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const b64u = (b: ArrayBuffer | Uint8Array) => Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)).toString('base64url');

/** `<…>authenticator/` and the token from an activation link `<…>authenticator/#activate=<token>`. */
export function parseActivationLink(link: string): { appUrl: string; token: string } {
  const url = new URL(link.trim());
  const token = /(?:^#|&)activate=([A-Za-z0-9_-]{43})(?:&|$)/.exec(url.hash)?.[1];
  if (!token) throw new Error('not an activation link: no #activate=<token> in it');
  if (!url.pathname.endsWith(`/${AUTHENTICATOR_APP_PATH}`)) throw new Error(`not an activation link: the path ends in ${url.pathname}`);
  url.hash = '';
  url.search = '';
  return { appUrl: url.toString(), token };
}

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s) of a Base32 secret. */
export function totp(secretBase32: string, at: number = Date.now(), period = 30, digits = 6): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const key: number[] = [];
  for (const ch of secretBase32.replace(/[\s=]/g, '').toUpperCase()) {
    const i = alphabet.indexOf(ch);
    if (i < 0) throw new Error('the passcode secret is not Base32');
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      key.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / period)));
  const mac = createHmac('sha1', Buffer.from(key)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return ((mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits).toString().padStart(digits, '0');
}

interface RawResponse {
  status: number;
  body: unknown;
}

export class SoftwarePhone {
  private saved: Omit<SavedPhone, 'privateJwk'> | null = null;

  private constructor(
    private readonly privateKey: webcrypto.CryptoKey,
    readonly publicJwk: DevicePublicKey,
    private readonly tls: PhoneTls,
    private jwk: webcrypto.JsonWebKey | null,
  ) {}

  /** A new phone with a fresh P-256 key (`extractable` only for a phone that is to be saved). */
  static async create(opts: { extractable?: boolean; tls?: PhoneTls } = {}): Promise<SoftwarePhone> {
    const pair = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, opts.extractable ?? false, [
      'sign',
      'verify',
    ])) as webcrypto.CryptoKeyPair;
    const pub = await webcrypto.subtle.exportKey('jwk', pair.publicKey);
    const jwk = opts.extractable ? await webcrypto.subtle.exportKey('jwk', pair.privateKey) : null;
    return new SoftwarePhone(pair.privateKey, { kty: 'EC', crv: 'P-256', x: pub.x!, y: pub.y! }, opts.tls ?? {}, jwk);
  }

  /** The phone `save()` wrote, with its key. */
  static async restore(saved: SavedPhone, opts: { tls?: PhoneTls; appUrl?: string } = {}): Promise<SoftwarePhone> {
    const key = await webcrypto.subtle.importKey('jwk', saved.privateJwk, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']);
    const { x, y } = saved.privateJwk;
    const phone = new SoftwarePhone(key, { kty: 'EC', crv: 'P-256', x: x!, y: y! }, opts.tls ?? {}, saved.privateJwk);
    phone.saved = { ...saved, appUrl: opts.appUrl ?? saved.appUrl };
    return phone;
  }

  get deviceId(): string {
    return this.activated().deviceId;
  }
  get account(): ActivateResponse['account'] {
    return this.activated().account;
  }
  get appUrl(): string {
    return this.activated().appUrl;
  }

  /** What the demo tool keeps on disk (only for a phone made with `extractable`). */
  save(): SavedPhone {
    if (!this.jwk) throw new Error('this phone was made with a non-extractable key: it cannot be saved');
    return { ...this.activated(), privateJwk: this.jwk };
  }

  /** Uses an activation link: registers the device key (and a Web Push subscription, if given). */
  async activate(
    link: string,
    opts: { deviceName?: string; platform?: 'ios' | 'android' | 'other'; pushSubscription?: PushSubscriptionJson | null } = {},
  ): Promise<ActivateResponse> {
    const { appUrl, token } = parseActivationLink(link);
    const deviceName = opts.deviceName ?? 'Software phone';
    const res = await this.call(appUrl, 'POST', 'activate', {
      token,
      publicKey: this.publicJwk,
      platform: opts.platform ?? 'other',
      deviceName,
      pushSubscription: opts.pushSubscription ?? null,
    });
    const body = this.expect<ActivateResponse>(res, 201, 'activate');
    this.saved = { appUrl, deviceId: body.deviceId, account: body.account, passcode: body.passcode, deviceName };
    return body;
  }

  async info(appUrl = this.appUrl): Promise<AuthenticatorInfo> {
    return this.expect<AuthenticatorInfo>(await this.call(appUrl, 'GET', 'info'), 200, 'info');
  }

  /** The pushes waiting for this device (what, where, when; never the number). */
  async pending(): Promise<PendingPushRequest[]> {
    return this.expect<{ requests: PendingPushRequest[] }>(await this.signed('GET', 'requests'), 200, 'requests').requests;
  }

  /** Signs and sends an answer; throws {@link PhoneApiError} with the server's code when refused. */
  async answer(requestId: string, decision: 'approve' | 'deny', number: string | null = null): Promise<PushAnswerResponse> {
    const answer: PushAnswer = { requestId, number: decision === 'approve' ? number : null, decision, time: new Date().toISOString() };
    const signature = await this.sign(answerSigningInput(answer));
    const res = await this.signed('POST', `requests/${requestId}/answer`, { answer, signature });
    return this.expect<PushAnswerResponse>(res, 200, `answer ${decision}`);
  }
  approve = (requestId: string, number: string) => this.answer(requestId, 'approve', number);
  deny = (requestId: string) => this.answer(requestId, 'deny');

  /** "This wasn't me" after a denial. */
  async report(requestId: string): Promise<void> {
    this.expect(await this.signed('POST', `requests/${requestId}/report`), 200, 'report');
  }

  async setPushSubscription(pushSubscription: PushSubscriptionJson | null): Promise<void> {
    this.expect(await this.signed('PUT', 'push-subscription', { pushSubscription }), 204, 'push-subscription');
  }

  /** The passcode the app shows now (or at `at`). */
  passcode(at: number = Date.now()): string {
    return totp(this.activated().passcode.secret, at);
  }

  /**
   * The app's event stream (`GET events`, signed): yields each pending push (`request`) and each push that
   * ends (`closed`) until `signal` aborts or the server ends the stream.
   */
  async *events(signal?: AbortSignal): AsyncGenerator<PhoneEvent> {
    const path = this.apiPath('events');
    const url = new URL(path, this.appUrl);
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      void this.authorization('GET', path).then((authorization) => {
        const req = this.transport(url).request(
          url,
          { method: 'GET', headers: { authorization, accept: 'text/event-stream' }, ...this.tlsOptions(url), signal },
          resolve,
        );
        req.on('error', reject);
        req.end();
      }, reject);
    });
    if (res.statusCode !== 200) {
      const text = await readAll(res);
      throw new PhoneApiError(res.statusCode ?? 0, codeOf(text), text, 'events');
    }
    res.setEncoding('utf8');
    let buffer = '';
    try {
      for await (const chunk of res as AsyncIterable<string>) {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: ?(.*)$/m.exec(block)?.[1];
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).replace(/^ /, ''))
            .join('\n');
          if (!event || !data) continue; // a comment (heartbeat) or an event without data
          const parsed = JSON.parse(data) as Record<string, unknown>;
          if (event === 'request') yield { event, request: parsed as unknown as PendingPushRequest };
          else if (event === 'closed') yield { event, id: String(parsed.id), state: String(parsed.state) };
        }
      }
    } catch (err) {
      if (!signal?.aborted) throw err;
    } finally {
      res.destroy();
    }
  }

  /** The next pending push that `match` accepts: from the list if one is waiting, else from the stream. */
  async nextRequest(opts: { match?: (r: PendingPushRequest) => boolean; timeoutMs?: number } = {}): Promise<PendingPushRequest> {
    const match = opts.match ?? (() => true);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), opts.timeoutMs ?? 15_000);
    try {
      for await (const e of this.events(abort.signal)) if (e.event === 'request' && match(e.request)) return e.request;
      throw new Error(abort.signal.aborted ? 'no push request came in time' : 'the event stream ended');
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
  }

  // ---------- signing and transport ----------

  private activated(): Omit<SavedPhone, 'privateJwk'> {
    if (!this.saved) throw new Error('this phone is not activated yet');
    return this.saved;
  }

  private async sign(input: string): Promise<string> {
    const sig = await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, this.privateKey, Buffer.from(input, 'utf8'));
    return b64u(sig);
  }

  /** The path the server sees (base path included), which is what the device signs. */
  private apiPath(route: string): string {
    return new URL(`api/${route}`, this.appUrl).pathname;
  }

  private async authorization(method: string, path: string): Promise<string> {
    const ts = Date.now();
    return deviceAuthHeader(this.deviceId, ts, await this.sign(deviceAuthSigningInput(method, path, ts)));
  }

  private async signed(method: string, route: string, body?: unknown): Promise<RawResponse> {
    const path = this.apiPath(route);
    return this.call(this.appUrl, method, route, body, await this.authorization(method, path));
  }

  private transport(url: URL) {
    return url.protocol === 'https:' ? https : http;
  }

  private tlsOptions(url: URL): https.RequestOptions {
    if (url.protocol !== 'https:') return {};
    if (this.tls.ca) return { ca: this.tls.ca };
    return LOOPBACK.has(url.hostname) && !this.tls.strictLoopback ? { rejectUnauthorized: false } : {};
  }

  private call(appUrl: string, method: string, route: string, body?: unknown, authorization?: string): Promise<RawResponse> {
    // The app's API lives at `api/` below the app (AUTHENTICATOR_API_PATH below the base path).
    const url = new URL(`api/${route}`, appUrl);
    if (!url.pathname.endsWith(`/${AUTHENTICATOR_API_PATH}${route}`)) throw new Error(`unexpected app address: ${appUrl}`);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (authorization) headers.authorization = authorization;
    return new Promise((resolve, reject) => {
      const req = this.transport(url).request(url, { method, headers, ...this.tlsOptions(url) }, (res) => {
        void readAll(res).then((text) => {
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            // not JSON: kept as text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        }, reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  private expect<T>(res: RawResponse, status: number, what: string): T {
    if (res.status !== status) {
      const code = res.body && typeof res.body === 'object' && 'code' in res.body ? String((res.body as { code: unknown }).code) : null;
      throw new PhoneApiError(res.status, code, res.body, what);
    }
    return res.body as T;
  }
}

async function readAll(res: http.IncomingMessage): Promise<string> {
  let text = '';
  res.setEncoding('utf8');
  for await (const chunk of res as AsyncIterable<string>) text += chunk;
  return text;
}

function codeOf(text: string): string | null {
  try {
    return (JSON.parse(text) as { code?: string }).code ?? null;
  } catch {
    return null;
  }
}
