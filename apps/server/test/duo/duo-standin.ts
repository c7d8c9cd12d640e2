import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP, type AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { hotpCode } from '../../src/mfa/common/otp.js';

/**
 * A stand-in for Duo's Admin API v1 and Auth API v2, for tests only (Duo's cloud is not reachable
 * here). It listens on 127.0.0.1 (HTTPS with a self-signed certificate, or HTTP), and:
 *
 * - verifies every request as Duo does: HTTP Basic `ikey:hex(HMAC-SHA512)`, the `Date` header within
 *   ±300 s, the canonical string recomputed here — v2 for query and form parameters, v5 (SHA-512 of the
 *   body and of the X-Duo-* headers) for JSON bodies and, when the client signed so, GET/DELETE. This
 *   file has its own canonicalisation (not the portal's), so the two check each other;
 * - keeps two integrations apart: the Admin API key only on /admin/*, the Auth API key only on /auth/*;
 * - validates parameters as Duo documents them (bypass `count` 1–10, `valid_secs` and `reuse_count`
 *   whole numbers ≥ 0, `limit`/`offset`, required ones) and answers Duo's shapes: `{stat:'OK', response,
 *   metadata}` and `{stat:'FAIL', code, message, message_detail}`;
 * - keeps state: users (created, modified and deleted through the Admin API; statuses, aliases, unique
 *   usernames, lockout after failed attempts), phones (Duo Mobile
 *   activation, HOTP passcodes), hardware tokens with HOTP seeds and counters, bypass codes (expiry,
 *   uses left), pushes and verification pushes answered by the test;
 * - pages lists (`limit`, `offset`, `metadata.next_offset`), with a maximum page size tests can lower;
 * - can be told to answer 429 or 5xx N times (optionally after doing the work: a lost answer).
 *
 * Error codes used: 40001 missing parameter, 40002 invalid parameter, 40101 missing credentials,
 * 40102 unknown integration key, 40103 invalid signature, 40104 missing Date, 40105 Date outside the
 * window, 40301 access forbidden, 40401 not found, 42901 too many requests, 50001 internal error.
 * Where Duo's documentation does not give a code, these are the stand-in's choice.
 */

export const STANDIN_DATE_WINDOW_SECONDS = 300;
const DEFAULT_PAGE_LIMIT = 100;
const HOTP_AUTH_WINDOW = 10;
const HOTP_RESYNC_WINDOW = 1000;
const MAX_LIVE_BYPASS_CODES = 100;

export interface StandinIntegration {
  integrationKey: string;
  secretKey: string;
}

export interface DuoStandinOptions {
  host?: string;
  tls?: boolean;
  /** Largest `limit` any list honours (Duo: 100–500 by endpoint); tests lower it to force paging. */
  maxLimit?: number;
  /** Failed passcodes before a user is locked out. */
  lockoutThreshold?: number;
  admin?: StandinIntegration;
  auth?: StandinIntegration;
  /**
   * How long an Auth API push waits for its answer before Duo ends it as `timeout` (the stand-in's
   * choice; tests shorten it or move the clock with `advanceClock`).
   */
  pushLifetimeSeconds?: number;
  /** Bypass codes a user may hold at once (the stand-in's choice of Duo's per-user limit). */
  bypassCodeLimit?: number;
  /** Phones a user may have (the stand-in's choice of Duo's per-user limit). */
  phoneLimit?: number;
  /**
   * The tenant's "Require Verified Duo Push" policy: a push asked for by a client that says it can
   * show the code (`client_supports_verified_push=1` on preauth, that preauth's `txid` on /auth) asks
   * for a code on the phone. A client that does not say so gets a plain push (the policy is skipped).
   */
  requireVerifiedPush?: boolean;
}

export interface StandinUser {
  user_id: string;
  username: string;
  realname: string;
  email: string;
  status: string;
  aliases: string[];
  created: number;
  lockout_reason: string | null;
  failedAttempts: number;
}

export interface StandinPhone {
  phone_id: string;
  number: string;
  name: string;
  type: string;
  platform: string;
  activated: boolean;
  capabilities: string[];
  last_seen: string;
  userIds: string[];
  seed: Buffer;
  counter: number;
  activationCode: string | null;
  smsActivationsSent: number;
}

export interface StandinToken {
  token_id: string;
  type: string;
  serial: string;
  seed: Buffer;
  counter: number;
  userIds: string[];
}

export interface StandinBypassCode {
  bypass_code_id: string;
  user_id: string;
  code: string;
  created: number;
  expiration: number | null;
  reuse_count: number;
  admin_email: string;
}

export interface StandinRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  status: number;
  signatureVersion: 2 | 5 | null;
  contentType: string | null;
  api: 'admin' | 'auth' | null;
}

interface Fault {
  times: number;
  status: number;
  method?: string;
  path?: RegExp;
  retryAfter?: string;
  /** `X-Retry-After` on a 429 (Duo's clients read it besides `Retry-After`). */
  xRetryAfter?: string;
  /** Do the work, then answer the fault (the client's answer is lost). */
  afterEffect?: boolean;
}

type Handler = (params: Record<string, string>, match: RegExpMatchArray) => unknown;

/**
 * A helpdesk verification push is answerable for 120 s; past that Duo's Admin API answers 404 for it
 * (Admin API docs, "Retrieve Verification Push Response").
 */
export const VERIFICATION_PUSH_LIFETIME_SECONDS = 120;

type PushState = 'waiting' | 'allow' | 'deny' | 'fraud' | 'timeout';

class DuoFail extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

const missing = (name: string) => new DuoFail(400, 40001, 'Missing required request parameters', name);
const randomTxid = () =>
  `${randomBytes(4).toString('hex')}-${randomBytes(2).toString('hex')}-${randomBytes(2).toString('hex')}-${randomBytes(6).toString('hex')}`;
const invalid = (name: string) => new DuoFail(400, 40002, 'Invalid request parameters', name);
const notFound = () => new DuoFail(404, 40401, 'Resource not found');
/**
 * A per-user limit (phones, bypass codes): Duo answers 500 with code 50001 rather than a 4xx (the
 * Admin API docs list 50001 for these); the detail says which limit.
 */
const limitReached = (what: string) => new DuoFail(500, 50001, 'Internal server error', `Limit of ${what} for this user reached`);

// --- canonicalisation, written here independently of src/mfa/duo/signing.ts ---

function rfc3986(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function canonicalParams(params: Record<string, string>): string {
  const pairs = Object.keys(params).map((k) => [rfc3986(k), rfc3986(params[k]!)] as const);
  pairs.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
  return pairs.map((p) => `${p[0]}=${p[1]}`).join('&');
}

const sha512 = (s: string) => createHash('sha512').update(s, 'utf8').digest('hex');

function xDuoHash(headers: http.IncomingHttpHeaders): string {
  const names = Object.keys(headers)
    .filter((h) => h.toLowerCase().startsWith('x-duo-'))
    .sort();
  const parts: string[] = [];
  for (const n of names) parts.push(n.toLowerCase(), String(headers[n]));
  return sha512(parts.join('\u0000'));
}

function duoId(prefix: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let s = prefix;
  while (s.length < 20) s += alphabet[randomInt(alphabet.length)];
  return s;
}

function randomKey(length: number, alphabet: string): string {
  let s = '';
  for (let i = 0; i < length; i += 1) s += alphabet[randomInt(alphabet.length)];
  return s;
}

export function randomIntegration(): StandinIntegration {
  return {
    integrationKey: `DI${randomKey(18, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`,
    secretKey: randomKey(40, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'),
  };
}

/** Deterministic HOTP seed of a token serial (tests compute its codes). */
export function tokenSeed(serial: string): Buffer {
  return createHash('sha1').update(`standin-d100:${serial}`).digest();
}

const PLATFORMS: Record<string, string> = {
  'google android': 'Google Android',
  'apple ios': 'Apple iOS',
  'windows phone': 'Windows Phone',
  'rim blackberry': 'RIM BlackBerry',
  'java j2me': 'Java J2ME',
  'palm webos': 'Palm WebOS',
  'symbian os': 'Symbian OS',
  'windows mobile': 'Windows Mobile',
  'generic smartphone': 'Generic Smartphone',
};

export interface StandinWebauthnCredential {
  webauthnkey: string;
  credential_name: string;
  label: string;
  date_added: number;
  /** How it was registered; the stand-in uses `Security Key` and `Platform Authenticator`. */
  registered_as: string;
  /** Unix seconds; null: never used. */
  date_last_used: number | null;
  userId: string;
}

export class DuoStandin {
  readonly host: string;
  readonly admin: StandinIntegration;
  readonly auth: StandinIntegration;
  readonly users = new Map<string, StandinUser>();
  readonly phones = new Map<string, StandinPhone>();
  readonly tokens = new Map<string, StandinToken>();
  readonly bypassCodes = new Map<string, StandinBypassCode>();
  /** WebAuthn credentials (enrolled in Duo's prompt, which the stand-in does not play: tests add them). */
  readonly webauthnCredentials = new Map<string, StandinWebauthnCredential>();
  readonly pushes = new Map<
    string,
    {
      txid: string;
      user_id: string;
      phone_id: string;
      state: PushState;
      /** Stand-in ms (`now()`); default: `pushLifetimeSeconds` after it was sent. */
      expiresAt?: number;
      /** A status request has already been told "waiting" (the next ones are held until it changes). */
      reportedWaiting?: boolean;
      /** Verified Duo Push: the code shown to the person, which the phone must be given to approve. */
      verificationCode: string | null;
      /** What Duo Mobile shows with the push (Auth API /auth parameters), and where it came from. */
      type: string | null;
      displayUsername: string | null;
      pushinfo: string | null;
      ipaddr: string | null;
    }
  >();
  /** Preauth transactions for a verified push: each may start one push, within its lifetime. */
  readonly preauthTransactions = new Map<string, { user_id: string; expiresAt: number; used: boolean }>();
  requireVerifiedPush: boolean;
  readonly verificationPushes = new Map<
    string,
    { push_id: string; user_id: string; phone_id: string; confirmation_code: string; result: string; sentAt?: number }
  >();
  pushLifetimeSeconds: number;
  bypassCodeLimit: number;
  phoneLimit: number;
  /** Moves the stand-in's clock for pushes and verification pushes (never for the signature's Date check). */
  private clockOffsetMs = 0;
  /** Long-polls waiting for a push's state to change. */
  private readonly pushWaiters = new Set<() => void>();
  readonly requests: StandinRequest[] = [];
  maxLimit: number;
  lockoutThreshold: number;
  url = '';
  caPem: string | null = null;
  private server: http.Server | https.Server | null = null;
  private faults: Fault[] = [];
  private readonly tls: boolean;
  private readonly routes: Array<{ method: string; pattern: RegExp; api: 'admin' | 'auth'; handler: Handler }> = [];

  constructor(options: DuoStandinOptions = {}) {
    this.host = options.host ?? 'api-standin.duosecurity.com';
    this.tls = options.tls ?? true;
    this.maxLimit = options.maxLimit ?? 500;
    this.lockoutThreshold = options.lockoutThreshold ?? 10;
    this.admin = options.admin ?? randomIntegration();
    this.auth = options.auth ?? randomIntegration();
    this.pushLifetimeSeconds = options.pushLifetimeSeconds ?? 60;
    this.bypassCodeLimit = options.bypassCodeLimit ?? MAX_LIVE_BYPASS_CODES;
    this.phoneLimit = options.phoneLimit ?? 100;
    this.requireVerifiedPush = options.requireVerifiedPush ?? false;
    this.defineRoutes();
  }

  async start(): Promise<this> {
    const listener = (req: http.IncomingMessage, res: http.ServerResponse) => void this.handle(req, res);
    if (this.tls) {
      const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
        keySize: 2048,
        algorithm: 'sha256',
        extensions: [
          {
            name: 'subjectAltName',
            altNames: [
              { type: 7, ip: '127.0.0.1' },
              { type: 2, value: 'localhost' },
            ],
          },
        ],
      } as Parameters<typeof generate>[1]);
      this.caPem = pems.cert;
      this.server = https.createServer({ key: pems.private, cert: pems.cert }, listener);
    } else {
      this.server = http.createServer(listener);
    }
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `${this.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    return this;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    const server = this.server;
    this.server = null;
    this.wakePushWaiters();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  // --- seeding and inspection (tests) ---

  addUser(input: {
    username: string;
    realname?: string;
    email?: string;
    status?: string;
    aliases?: string[];
    lockoutReason?: string | null;
    created?: number;
  }): StandinUser {
    const user: StandinUser = {
      user_id: duoId('DU'),
      username: input.username,
      realname: input.realname ?? input.username,
      email: input.email ?? input.username,
      status: input.status ?? 'active',
      aliases: input.aliases ?? [],
      created: input.created ?? Math.floor(Date.parse('2024-01-02T03:04:05Z') / 1000),
      lockout_reason: input.lockoutReason ?? null,
      failedAttempts: 0,
    };
    this.users.set(user.user_id, user);
    return user;
  }

  user(username: string): StandinUser {
    const u = this.findUser(username);
    if (!u) throw new Error(`no stand-in user ${username}`);
    return u;
  }

  addPhone(input: {
    userId?: string;
    number: string;
    name?: string;
    platform?: string;
    type?: string;
    activated?: boolean;
    lastSeen?: string;
  }): StandinPhone {
    const phone: StandinPhone = {
      phone_id: duoId('DP'),
      number: input.number,
      name: input.name ?? '',
      type: input.type ?? 'Mobile',
      platform: input.platform ?? 'Apple iOS',
      activated: false,
      capabilities: input.type === 'Landline' ? ['phone'] : ['phone', 'sms'],
      last_seen: input.lastSeen ?? '',
      userIds: input.userId ? [input.userId] : [],
      seed: randomBytes(20),
      counter: 0,
      activationCode: null,
      smsActivationsSent: 0,
    };
    this.phones.set(phone.phone_id, phone);
    if (input.activated) this.activatePhone(phone.phone_id);
    return phone;
  }

  /** What scanning the activation QR code in Duo Mobile does: push and passcodes from now on. */
  activatePhone(phoneId: string): void {
    const phone = this.phones.get(phoneId);
    if (!phone) throw new Error('no such phone');
    phone.activated = true;
    phone.activationCode = null;
    phone.capabilities = [...new Set(['auto', 'push', ...phone.capabilities, 'mobile_otp'])];
  }

  /** A hardware token; its HOTP seed is `seed`, or derived from the serial (tokenSeed). */
  addToken(input: { serial: string; type?: string; userId?: string; counter?: number; seed?: Buffer }): StandinToken {
    const token: StandinToken = {
      token_id: duoId('DH'),
      type: input.type ?? 'd1',
      serial: input.serial,
      seed: input.seed ?? tokenSeed(input.serial),
      counter: input.counter ?? 0,
      userIds: input.userId ? [input.userId] : [],
    };
    this.tokens.set(token.token_id, token);
    return token;
  }

  /** A WebAuthn credential of a user, as Duo's prompt would have enrolled it. */
  addWebauthnCredential(input: {
    userId: string;
    name: string;
    label?: string;
    dateAdded?: number;
    registeredAs?: string;
    dateLastUsed?: number | null;
  }): StandinWebauthnCredential {
    const label = input.label ?? 'Security Key';
    const cred: StandinWebauthnCredential = {
      webauthnkey: duoId('WA'),
      credential_name: input.name,
      label,
      date_added: input.dateAdded ?? Math.floor(Date.now() / 1000),
      registered_as: input.registeredAs ?? (/security key/i.test(label) ? 'Security Key' : 'Platform Authenticator'),
      date_last_used: input.dateLastUsed ?? null,
      userId: input.userId,
    };
    this.webauthnCredentials.set(cred.webauthnkey, cred);
    return cred;
  }

  token(serial: string): StandinToken {
    const t = [...this.tokens.values()].find((x) => x.serial === serial);
    if (!t) throw new Error(`no stand-in token ${serial}`);
    return t;
  }

  /** The next `n` codes of a token from its counter, `skip` presses ahead. */
  tokenCodes(serial: string, n: number, skip = 0): string[] {
    const t = this.token(serial);
    return Array.from({ length: n }, (_, i) => hotpCode(t.seed, t.counter + skip + i));
  }

  /** The next Duo Mobile passcodes of an activated phone. */
  phoneCodes(phoneId: string, n: number, skip = 0): string[] {
    const p = this.phones.get(phoneId)!;
    return Array.from({ length: n }, (_, i) => hotpCode(p.seed, p.counter + skip + i));
  }

  addBypassCode(
    userId: string,
    input: { code: string; expiration: number | null; reuseCount: number; created?: number; adminEmail?: string },
  ): StandinBypassCode {
    const b: StandinBypassCode = {
      bypass_code_id: duoId('DB'),
      user_id: userId,
      code: input.code,
      created: input.created ?? this.nowSeconds(),
      expiration: input.expiration,
      reuse_count: input.reuseCount,
      admin_email: input.adminEmail ?? '',
    };
    this.bypassCodes.set(b.bypass_code_id, b);
    return b;
  }

  liveBypassCodes(userId: string): StandinBypassCode[] {
    const now = this.nowSeconds();
    return [...this.bypassCodes.values()].filter((b) => b.user_id === userId && (b.expiration === null || b.expiration > now));
  }

  /**
   * The person answers the push on the phone. A verified push is approved only with the code the
   * browser shows (`code`); without it, or with another, Duo Mobile does not approve: the push ends denied.
   */
  answerPush(txid: string, state: 'allow' | 'deny' | 'fraud' | 'timeout', code?: string): void {
    const p = this.pushes.get(txid);
    if (!p) throw new Error('no such push');
    p.state = state === 'allow' && p.verificationCode !== null && code !== p.verificationCode ? 'deny' : state;
    this.wakePushWaiters();
  }

  /** The stand-in's time for pushes, in ms (the real clock plus what `advanceClock` added). */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  /** As if `ms` had passed: pushes and verification pushes may expire; long-polls look again. */
  advanceClock(ms: number): void {
    this.clockOffsetMs += ms;
    this.wakePushWaiters();
  }

  private wakePushWaiters(): void {
    const waiters = [...this.pushWaiters];
    this.pushWaiters.clear();
    for (const w of waiters) w();
  }

  answerVerificationPush(pushId: string, result: 'approve' | 'deny' | 'fraud'): void {
    const p = this.verificationPushes.get(pushId);
    if (!p) throw new Error('no such verification push');
    p.result = result;
  }

  /** Answer `status` to the next `times` matching requests (after doing the work when `afterEffect`). */
  failNext(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** Everything a request may change, to compare before and after a refused one. */
  snapshot(): string {
    const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
    const bufferless = (_k: string, v: unknown) =>
      v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer' ? '<seed>' : v;
    return JSON.stringify(
      {
        users: sorted(this.users),
        phones: sorted(this.phones),
        tokens: sorted(this.tokens),
        bypass: sorted(this.bypassCodes),
        webauthn: sorted(this.webauthnCredentials),
      },
      bufferless,
    );
  }

  requestsTo(method: string, path: RegExp): StandinRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  // --- HTTP ---

  private nowSeconds(): number {
    return Math.floor(Date.now() / 1000);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://standin');
    const method = (req.method ?? 'GET').toUpperCase();
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() || null;
    const record: StandinRequest = { method, path: url.pathname, params: {}, status: 0, signatureVersion: null, contentType, api: null };
    this.requests.push(record);

    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const fail = (f: DuoFail, headers: Record<string, string> = {}) =>
      send(f.status, { stat: 'FAIL', code: f.code, message: f.message, ...(f.detail ? { message_detail: f.detail } : {}) }, headers);

    try {
      // Parameters: the query (GET, DELETE), a form body or a JSON body (POST).
      const query: Record<string, string> = Object.fromEntries(url.searchParams);
      let params: Record<string, string> = query;
      let json = false;
      if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
        if (contentType === 'application/json') {
          json = true;
          let body: unknown;
          try {
            body = raw ? JSON.parse(raw) : {};
          } catch {
            throw new DuoFail(400, 40002, 'Invalid request parameters', 'body');
          }
          if (!body || typeof body !== 'object' || Array.isArray(body)) throw new DuoFail(400, 40002, 'Invalid request parameters', 'body');
          params = Object.fromEntries(Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
        } else {
          params = Object.fromEntries(new URLSearchParams(raw));
        }
      }
      record.params = params;

      // Credentials.
      const authz = req.headers.authorization ?? '';
      const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authz);
      if (!m) throw new DuoFail(401, 40101, 'Missing request credentials');
      const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const ikey = decoded.slice(0, colon);
      const sig = decoded.slice(colon + 1);
      const integration =
        ikey === this.admin.integrationKey ? ('admin' as const) : ikey === this.auth.integrationKey ? ('auth' as const) : null;
      if (colon < 0 || !integration) throw new DuoFail(401, 40102, 'Invalid integration key in request credentials');
      record.api = integration;
      const skey = integration === 'admin' ? this.admin.secretKey : this.auth.secretKey;

      const date = req.headers.date;
      if (!date) throw new DuoFail(401, 40104, 'Missing request date');
      const at = Date.parse(date);
      if (Number.isNaN(at) || Math.abs(at - Date.now()) > STANDIN_DATE_WINDOW_SECONDS * 1000)
        throw new DuoFail(401, 40105, 'Request date is not within the allowed window');

      // The canonical strings this request may have been signed with.
      const base = [date, method, this.host.toLowerCase(), url.pathname];
      const candidates: Array<{ version: 2 | 5; text: string }> = [];
      if (json) {
        candidates.push({ version: 5, text: [...base, canonicalParams(query), sha512(raw), xDuoHash(req.headers)].join('\n') });
      } else {
        candidates.push({ version: 2, text: [...base, canonicalParams(params)].join('\n') });
        if (method === 'GET' || method === 'DELETE')
          candidates.push({ version: 5, text: [...base, canonicalParams(params), sha512(''), xDuoHash(req.headers)].join('\n') });
      }
      const given = Buffer.from(sig.toLowerCase(), 'utf8');
      const matched = candidates.find((c) => {
        const expected = Buffer.from(createHmac('sha512', skey).update(c.text, 'utf8').digest('hex'), 'utf8');
        return expected.length === given.length && timingSafeEqual(expected, given);
      });
      if (!matched) throw new DuoFail(401, 40103, 'Invalid signature in request credentials');
      record.signatureVersion = matched.version;

      const route = this.routes.find((r) => r.method === method && r.pattern.test(url.pathname));
      if (!route) {
        if (this.routes.some((r) => r.pattern.test(url.pathname))) throw new DuoFail(405, 40501, 'Method not allowed');
        throw notFound();
      }
      if (route.api !== integration) throw new DuoFail(403, 40301, 'Access forbidden');

      const fault = this.faults.find((f) => f.times > 0 && (!f.method || f.method === method) && (!f.path || f.path.test(url.pathname)));
      const faultAnswer = (f: Fault) => {
        f.times -= 1;
        const headers: Record<string, string> = {
          ...(f.retryAfter ? { 'retry-after': f.retryAfter } : {}),
          ...(f.xRetryAfter ? { 'x-retry-after': f.xRetryAfter } : {}),
        };
        if (f.status === 429) return fail(new DuoFail(429, 42901, 'Too Many Requests'), headers);
        return fail(new DuoFail(f.status, 50001, 'Internal server error'), headers);
      };
      if (fault && !fault.afterEffect) return faultAnswer(fault);

      const response = await route.handler(params, url.pathname.match(route.pattern)!);
      if (fault?.afterEffect) return faultAnswer(fault);
      if (response && typeof response === 'object' && 'paged' in (response as object)) {
        const { items, metadata } = (response as { paged: { items: unknown[]; metadata: Record<string, number> } }).paged;
        return send(200, { stat: 'OK', response: items, metadata });
      }
      return send(200, { stat: 'OK', response });
    } catch (err) {
      if (err instanceof DuoFail) return fail(err);
      return fail(new DuoFail(500, 50001, 'Internal server error', err instanceof Error ? err.message : String(err)));
    }
  }

  // --- state helpers ---

  private findUser(username: string): StandinUser | undefined {
    const u = username.toLowerCase();
    return [...this.users.values()].find((x) => x.username.toLowerCase() === u || x.aliases.some((a) => a.toLowerCase() === u));
  }

  private userById(id: string): StandinUser {
    const u = this.users.get(id);
    if (!u) throw notFound();
    return u;
  }

  private phonesOf(userId: string) {
    return [...this.phones.values()].filter((p) => p.userIds.includes(userId));
  }

  private webauthnOf(userId: string) {
    return [...this.webauthnCredentials.values()].filter((c) => c.userId === userId);
  }

  /**
   * Duo's documented shape of a WebAuthn credential (Admin API v1, "Retrieve WebAuthn Credentials by
   * User": credential_name, date_added, date_last_used, label, registered_as, webauthnkey).
   */
  private webauthnJson(c: StandinWebauthnCredential, withUser = false) {
    return {
      webauthnkey: c.webauthnkey,
      credential_name: c.credential_name,
      date_added: c.date_added,
      date_last_used: c.date_last_used,
      label: c.label,
      registered_as: c.registered_as,
      ...(withUser ? { user: this.userSummary(this.users.get(c.userId)!) } : {}),
    };
  }

  private tokensOf(userId: string) {
    return [...this.tokens.values()].filter((t) => t.userIds.includes(userId));
  }

  private page<T>(items: T[], params: Record<string, string>): { paged: { items: T[]; metadata: Record<string, number> } } {
    const limitText = params.limit ?? String(DEFAULT_PAGE_LIMIT);
    const offsetText = params.offset ?? '0';
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1) throw invalid('limit');
    if (!/^\d+$/.test(offsetText)) throw invalid('offset');
    const limit = Math.min(Number(limitText), this.maxLimit);
    const offset = Number(offsetText);
    const slice = items.slice(offset, offset + limit);
    const metadata: Record<string, number> = { total_objects: items.length };
    if (offset + limit < items.length) metadata.next_offset = offset + limit;
    if (offset > 0) metadata.prev_offset = Math.max(0, offset - limit);
    return { paged: { items: slice, metadata } };
  }

  private phoneJson(p: StandinPhone, withUsers = false) {
    return {
      phone_id: p.phone_id,
      number: p.number,
      extension: '',
      name: p.name,
      type: p.type,
      platform: p.platform,
      activated: p.activated,
      capabilities: [...p.capabilities],
      sms_passcodes_sent: false,
      last_seen: p.last_seen,
      model: 'Unknown',
      ...(withUsers ? { users: p.userIds.map((id) => this.userSummary(this.users.get(id)!)) } : {}),
    };
  }

  private tokenJson(t: StandinToken, withUsers = false) {
    return {
      token_id: t.token_id,
      type: t.type,
      serial: t.serial,
      totp_step: null,
      admins: [],
      ...(withUsers ? { users: t.userIds.map((id) => this.userSummary(this.users.get(id)!)) } : {}),
    };
  }

  private userSummary(u: StandinUser) {
    return { user_id: u.user_id, username: u.username, realname: u.realname, email: u.email, status: u.status };
  }

  private userJson(u: StandinUser) {
    return {
      ...this.userSummary(u),
      alias1: u.aliases[0] ?? null,
      alias2: u.aliases[1] ?? null,
      created: u.created,
      last_login: null,
      is_enrolled: this.phonesOf(u.user_id).length + this.tokensOf(u.user_id).length > 0,
      lockout_reason: u.status === 'locked out' ? u.lockout_reason : null,
      notes: '',
      phones: this.phonesOf(u.user_id).map((p) => this.phoneJson(p)),
      tokens: this.tokensOf(u.user_id).map((t) => this.tokenJson(t)),
      groups: [],
      u2ftokens: [],
      webauthncredentials: this.webauthnOf(u.user_id).map((c) => this.webauthnJson(c)),
    };
  }

  private bypassJson(b: StandinBypassCode) {
    return {
      bypass_code_id: b.bypass_code_id,
      admin_email: b.admin_email,
      created: b.created,
      expiration: b.expiration,
      // A code without a limit (asked for with reuse_count=0) is listed with null: Duo's Admin API
      // "Retrieve Bypass Codes by User", and duo_api_csharp's BypassCode model ("or null if the bypass
      // code has no limit").
      reuse_count: b.reuse_count === 0 ? null : b.reuse_count,
    };
  }

  private wholeNumber(params: Record<string, string>, name: string, min: number, max: number, fallback: number): number {
    const v = params[name];
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v)) throw invalid(name);
    const n = Number(v);
    if (n < min || n > max) throw invalid(name);
    return n;
  }

  private bool(params: Record<string, string>, name: string, fallback: boolean): boolean {
    const v = params[name];
    if (v === undefined) return fallback;
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    throw invalid(name);
  }

  private required(params: Record<string, string>, name: string): string {
    const v = params[name];
    if (v === undefined || v === '') throw missing(name);
    return v;
  }

  private phoneFields(params: Record<string, string>, phone: Partial<StandinPhone>): void {
    if (params.number !== undefined) {
      if (!/^\+?[0-9]{7,15}$/.test(params.number)) throw invalid('number');
      phone.number = params.number.startsWith('+') ? params.number : `+${params.number}`;
    }
    if (params.name !== undefined) phone.name = params.name;
    if (params.type !== undefined) {
      const t = params.type.toLowerCase();
      if (t !== 'mobile' && t !== 'landline') throw invalid('type');
      phone.type = t === 'mobile' ? 'Mobile' : 'Landline';
    }
    if (params.platform !== undefined) {
      const p = PLATFORMS[params.platform.toLowerCase()];
      if (!p) throw invalid('platform');
      phone.platform = p;
    }
  }

  private activation(phone: StandinPhone, params: Record<string, string>) {
    if (phone.type !== 'Mobile') throw invalid('phone_id');
    const validSecs = this.wholeNumber(params, 'valid_secs', 1, 31_536_000, 86_400);
    const install = this.bool(params, 'install', false);
    phone.activationCode = randomKey(20, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
    const mhost = this.host.replace(/^api-/, 'm-');
    return {
      activation_url: `https://${mhost}/activate/${phone.activationCode}`,
      activation_barcode: `https://${this.host}/frame/qr?value=${encodeURIComponent(`duo://${phone.activationCode}`)}`,
      ...(install ? { installation_url: `https://${mhost}/android/${phone.activationCode}` } : {}),
      valid_secs: validSecs,
    };
  }

  /** Checks a passcode against every source of the user (tokens, Duo Mobile, bypass codes). */
  private checkPasscode(user: StandinUser, passcode: string): boolean {
    for (const source of [
      ...this.tokensOf(user.user_id),
      ...this.phonesOf(user.user_id).filter((p) => p.capabilities.includes('mobile_otp')),
    ]) {
      for (let c = source.counter; c < source.counter + HOTP_AUTH_WINDOW; c += 1) {
        if (hotpCode(source.seed, c) === passcode) {
          source.counter = c + 1;
          return true;
        }
      }
    }
    const code = this.liveBypassCodes(user.user_id).find((b) => b.code === passcode);
    if (code) {
      if (code.reuse_count === 1) this.bypassCodes.delete(code.bypass_code_id);
      else if (code.reuse_count > 1) code.reuse_count -= 1;
      return true;
    }
    return false;
  }

  /** `ipaddr`, when given, must be an IP address (Duo: 40002 otherwise). */
  private ipaddrOf(params: Record<string, string>): string | null {
    if (params.ipaddr === undefined) return null;
    if (!isIP(params.ipaddr)) throw invalid('ipaddr');
    return params.ipaddr;
  }

  private authUser(params: Record<string, string>): StandinUser | null {
    if (params.user_id) return this.users.get(params.user_id) ?? null;
    if (params.username) return this.findUser(params.username) ?? null;
    throw missing('user_id');
  }

  private defineRoutes(): void {
    const admin = (method: string, path: string, handler: Handler) =>
      this.routes.push({ method, pattern: new RegExp(`^${path}$`), api: 'admin', handler });
    const authApi = (method: string, path: string, handler: Handler) =>
      this.routes.push({ method, pattern: new RegExp(`^${path}$`), api: 'auth', handler });
    const ID = '([A-Za-z0-9]+)';

    // Users
    admin('GET', '/admin/v1/users', (p) => {
      const all = p.username !== undefined ? [this.findUser(p.username)].filter((u): u is StandinUser => !!u) : [...this.users.values()];
      return this.page(
        all.map((u) => this.userJson(u)),
        p,
      );
    });
    admin('GET', `/admin/v1/users/${ID}`, (_p, m) => this.userJson(this.userById(m[1]!)));
    const USER_FIELDS = [
      'username',
      'realname',
      'email',
      'status',
      'notes',
      'firstname',
      'lastname',
      'alias1',
      'alias2',
      'alias3',
      'alias4',
    ];
    /** The checks Create User and Modify User share: known fields, a settable status, a username no one else has. */
    const checkUserFields = (p: Record<string, string>, self: StandinUser | null) => {
      const unknown = Object.keys(p).find((k) => !USER_FIELDS.includes(k));
      if (unknown) throw invalid(unknown);
      if (p.status !== undefined && !['active', 'bypass', 'disabled'].includes(p.status)) throw invalid('status');
      // Duo: "400 Invalid or missing parameters. For example, the username already exists" (as a username or alias).
      if (p.username !== undefined && (p.username === '' || (this.findUser(p.username) ?? self) !== self)) throw invalid('username');
    };
    // Create User: form parameters, `username` required; the new user, without devices.
    admin('POST', '/admin/v1/users', (p) => {
      this.required(p, 'username');
      checkUserFields(p, null);
      const user = this.addUser({
        username: p.username!,
        realname: p.realname ?? '',
        email: p.email ?? '',
        status: p.status ?? 'active',
        created: this.nowSeconds(),
      });
      return this.userJson(user);
    });
    // Delete User: at once and for good; its bypass codes and WebAuthn credentials go, its phones and
    // tokens stay (only the association ends). Duo answers 200 when no such user exists (Duo's own client:
    // "If the user is already deleted, does nothing").
    admin('DELETE', `/admin/v1/users/${ID}`, (_p, m) => {
      const id = m[1]!;
      if (!this.users.delete(id)) return '';
      for (const b of [...this.bypassCodes.values()]) if (b.user_id === id) this.bypassCodes.delete(b.bypass_code_id);
      for (const c of [...this.webauthnCredentials.values()]) if (c.userId === id) this.webauthnCredentials.delete(c.webauthnkey);
      for (const x of [...this.phones.values(), ...this.tokens.values()]) x.userIds = x.userIds.filter((u) => u !== id);
      return '';
    });
    // Modify User: form parameters; `status` only active, bypass or disabled (Duo refuses "locked out"
    // and the rest); `active` ends a lockout. Validated before anything changes; 404 for an unknown id.
    admin('POST', `/admin/v1/users/${ID}`, (p, m) => {
      const user = this.userById(m[1]!);
      checkUserFields(p, user);
      if (p.username !== undefined) user.username = p.username;
      if (p.realname !== undefined) user.realname = p.realname;
      if (p.email !== undefined) user.email = p.email;
      if (p.status !== undefined) {
        user.status = p.status;
        user.lockout_reason = null;
        user.failedAttempts = 0;
      }
      return this.userJson(user);
    });

    // Phones
    admin('GET', `/admin/v1/users/${ID}/phones`, (p, m) =>
      this.page(
        this.phonesOf(this.userById(m[1]!).user_id).map((x) => this.phoneJson(x)),
        p,
      ),
    );
    admin('POST', `/admin/v1/users/${ID}/phones`, (p, m) => {
      const user = this.userById(m[1]!);
      const phone = this.phones.get(this.required(p, 'phone_id'));
      if (!phone) throw notFound();
      if (!phone.userIds.includes(user.user_id) && this.phonesOf(user.user_id).length >= this.phoneLimit) throw limitReached('phones');
      if (!phone.userIds.includes(user.user_id)) phone.userIds.push(user.user_id);
      return '';
    });
    admin('DELETE', `/admin/v1/users/${ID}/phones/${ID}`, (_p, m) => {
      const user = this.userById(m[1]!);
      const phone = this.phones.get(m[2]!);
      // Not (or no longer) associated: already done, 200 as Duo answers a delete of what is gone.
      if (!phone || !phone.userIds.includes(user.user_id)) return '';
      phone.userIds = phone.userIds.filter((id) => id !== user.user_id);
      return '';
    });
    // Retrieve Phones (Admin API): `number` and `extension` filter the list; each phone with its users.
    // Duo's clients find a phone by number this way before adding one (duo_client_python
    // `Admin.get_phones_generator(number=...)`, duo_api_golang `GetPhones(WithNumber...)`).
    admin('GET', '/admin/v1/phones', (p) => {
      const number = p.number === undefined ? undefined : p.number.startsWith('+') ? p.number : `+${p.number}`;
      const all = [...this.phones.values()].filter(
        (x) => (number === undefined || x.number === number) && (p.extension === undefined || p.extension === ''),
      );
      return this.page(
        all.map((x) => this.phoneJson(x, true)),
        p,
      );
    });
    // Create Phone: a number Duo already holds is refused, 40003 "Duplicate resource" (Admin API docs,
    // "Create Phone": the number must be unique; the phone is then looked up by number and reused).
    admin('POST', '/admin/v1/phones', (p) => {
      const phone = this.addPhone({ number: '' });
      try {
        this.phoneFields(p, phone);
        if (phone.number && [...this.phones.values()].some((x) => x !== phone && x.number === phone.number))
          throw new DuoFail(400, 40003, 'Duplicate resource', 'number');
      } catch (err) {
        this.phones.delete(phone.phone_id);
        throw err;
      }
      phone.capabilities = phone.type === 'Landline' ? ['phone'] : ['phone', 'sms'];
      return this.phoneJson(phone);
    });
    admin('GET', `/admin/v1/phones/${ID}`, (_p, m) => {
      const phone = this.phones.get(m[1]!);
      if (!phone) throw notFound();
      return this.phoneJson(phone, true);
    });
    admin('POST', `/admin/v1/phones/${ID}`, (p, m) => {
      const phone = this.phones.get(m[1]!);
      if (!phone) throw notFound();
      const changed: Partial<StandinPhone> = {};
      this.phoneFields(p, changed);
      Object.assign(phone, changed);
      return this.phoneJson(phone);
    });
    // Deletes answer 200 whether or not the thing still exists (duo_client_python's delete_* helpers
    // document deleting as done "if it exists"; Duo's Delete User likewise).
    admin('DELETE', `/admin/v1/phones/${ID}`, (_p, m) => {
      this.phones.delete(m[1]!);
      return '';
    });
    admin('POST', `/admin/v1/phones/${ID}/activation_url`, (p, m) => {
      const phone = this.phones.get(m[1]!);
      if (!phone) throw notFound();
      return this.activation(phone, p);
    });
    admin('POST', `/admin/v1/phones/${ID}/send_sms_activation`, (p, m) => {
      const phone = this.phones.get(m[1]!);
      if (!phone) throw notFound();
      if (!phone.number || !phone.capabilities.includes('sms')) throw invalid('phone_id');
      const a = this.activation(phone, p);
      phone.smsActivationsSent += 1;
      return {
        ...a,
        activation_msg: 'To activate the Duo Mobile app, click this link: <insert url>',
        installation_msg: 'Welcome to Duo! To install Duo Mobile, click this link: <insert url>',
      };
    });

    // WebAuthn credentials
    admin('GET', `/admin/v1/users/${ID}/webauthncredentials`, (p, m) =>
      this.page(
        this.webauthnOf(this.userById(m[1]!).user_id).map((c) => this.webauthnJson(c)),
        p,
      ),
    );
    admin('GET', `/admin/v1/webauthncredentials/${ID}`, (_p, m) => {
      const cred = this.webauthnCredentials.get(m[1]!);
      if (!cred) throw notFound();
      return this.webauthnJson(cred, true);
    });
    admin('DELETE', `/admin/v1/webauthncredentials/${ID}`, (_p, m) => {
      this.webauthnCredentials.delete(m[1]!);
      return '';
    });

    // Hardware tokens
    admin('GET', `/admin/v1/users/${ID}/tokens`, (p, m) =>
      this.page(
        this.tokensOf(this.userById(m[1]!).user_id).map((t) => this.tokenJson(t)),
        p,
      ),
    );
    admin('POST', `/admin/v1/users/${ID}/tokens`, (p, m) => {
      const user = this.userById(m[1]!);
      const token = this.tokens.get(this.required(p, 'token_id'));
      if (!token) throw notFound();
      if (!token.userIds.includes(user.user_id)) token.userIds.push(user.user_id);
      return '';
    });
    admin('DELETE', `/admin/v1/users/${ID}/tokens/${ID}`, (_p, m) => {
      const user = this.userById(m[1]!);
      const token = this.tokens.get(m[2]!);
      if (!token || !token.userIds.includes(user.user_id)) throw notFound();
      token.userIds = token.userIds.filter((id) => id !== user.user_id);
      return '';
    });
    admin('GET', '/admin/v1/tokens', (p) => {
      if ((p.type === undefined) !== (p.serial === undefined)) throw invalid(p.type === undefined ? 'type' : 'serial');
      if (p.type !== undefined && !['h6', 'h8', 't6', 't8', 'yk', 'd1'].includes(p.type)) throw invalid('type');
      const all = [...this.tokens.values()].filter((t) => p.type === undefined || (t.type === p.type && t.serial === p.serial));
      return this.page(
        all.map((t) => this.tokenJson(t, true)),
        p,
      );
    });
    admin('POST', `/admin/v1/tokens/${ID}/resync`, (p, m) => {
      const token = this.tokens.get(m[1]!);
      if (!token) throw notFound();
      const codes = [this.required(p, 'code1'), this.required(p, 'code2'), this.required(p, 'code3')];
      if (!['h6', 'h8', 'd1'].includes(token.type)) throw invalid('token_id');
      for (let c = token.counter; c < token.counter + HOTP_RESYNC_WINDOW; c += 1) {
        if (codes.every((code, i) => hotpCode(token.seed, c + i) === code)) {
          token.counter = c + 3;
          return '';
        }
      }
      throw invalid('code1');
    });

    // Bypass codes
    admin('POST', `/admin/v1/users/${ID}/bypass_codes`, (p, m) => {
      const user = this.userById(m[1]!);
      if (p.count !== undefined && p.codes !== undefined) throw invalid('count');
      const count = p.codes !== undefined ? p.codes.split(',').length : this.wholeNumber(p, 'count', 1, 10, 10);
      const validSecs = this.wholeNumber(p, 'valid_secs', 0, Number.MAX_SAFE_INTEGER, 0);
      const reuse = this.wholeNumber(p, 'reuse_count', 0, Number.MAX_SAFE_INTEGER, 1);
      const preserve = this.bool(p, 'preserve_existing', false);
      const codes =
        p.codes !== undefined ? p.codes.split(',') : Array.from({ length: count }, () => String(randomInt(0, 1e9)).padStart(9, '0'));
      if (codes.some((c) => !/^[0-9]{4,20}$/.test(c))) throw invalid('codes');
      const live = this.liveBypassCodes(user.user_id);
      if (preserve && live.length + codes.length > this.bypassCodeLimit) throw limitReached('bypass codes');
      if (!preserve) for (const b of live) this.bypassCodes.delete(b.bypass_code_id);
      const now = this.nowSeconds();
      for (const code of codes)
        this.addBypassCode(user.user_id, { code, created: now, expiration: validSecs === 0 ? null : now + validSecs, reuseCount: reuse });
      return codes;
    });
    admin('GET', `/admin/v1/users/${ID}/bypass_codes`, (p, m) =>
      this.page(
        this.liveBypassCodes(this.userById(m[1]!).user_id).map((b) => this.bypassJson(b)),
        p,
      ),
    );
    admin('DELETE', `/admin/v1/bypass_codes/${ID}`, (_p, m) => {
      this.bypassCodes.delete(m[1]!);
      return '';
    });

    // Helpdesk verification push
    admin('POST', `/admin/v1/users/${ID}/send_verification_push`, (p, m) => {
      const user = this.userById(m[1]!);
      const phone = this.phones.get(this.required(p, 'phone_id'));
      if (!phone || !phone.userIds.includes(user.user_id) || !phone.capabilities.includes('push')) throw invalid('phone_id');
      const push = {
        push_id: duoId('PV').toLowerCase(),
        user_id: user.user_id,
        phone_id: phone.phone_id,
        confirmation_code: String(randomInt(0, 1e6)).padStart(6, '0'),
        result: 'waiting',
        sentAt: this.now(),
      };
      this.verificationPushes.set(push.push_id, push);
      return { push_id: push.push_id, confirmation_code: push.confirmation_code };
    });
    admin('GET', `/admin/v1/users/${ID}/verification_push_response`, (p, m) => {
      const user = this.userById(m[1]!);
      const push = this.verificationPushes.get(this.required(p, 'push_id'));
      if (!push || push.user_id !== user.user_id) throw notFound();
      // Past its lifetime a verification push is gone at Duo: 404, answered or not.
      if (push.sentAt !== undefined && this.now() - push.sentAt > VERIFICATION_PUSH_LIFETIME_SECONDS * 1000) throw notFound();
      return { push_id: push.push_id, result: push.result };
    });

    // Auth API
    authApi('POST', '/auth/v2/preauth', (p) => {
      const user = this.authUser(p);
      this.ipaddrOf(p);
      if (p.client_supports_verified_push !== undefined && p.client_supports_verified_push !== '1')
        throw invalid('client_supports_verified_push');
      if (!user)
        return {
          result: 'enroll',
          status_msg: 'Enroll an authentication device to proceed',
          enroll_portal_url: `https://${this.host}/portal`,
        };
      if (user.status === 'disabled') return { result: 'deny', status_msg: 'Your account is disabled' };
      if (user.status === 'locked out') return { result: 'deny', status_msg: 'Your account is locked out' };
      if (user.status === 'bypass') return { result: 'allow', status_msg: 'Allowing unknown user' };
      const phones = this.phonesOf(user.user_id);
      const tokens = this.tokensOf(user.user_id);
      if (phones.length + tokens.length === 0)
        return {
          result: 'enroll',
          status_msg: 'Enroll an authentication device to proceed',
          enroll_portal_url: `https://${this.host}/portal`,
        };
      // Verified Duo Push: a transaction for /auth, when the client can show the code and the policy
      // asks for one (duo_unix's test server answers it the same way, `mockduo.py`).
      let txid: string | undefined;
      if (p.client_supports_verified_push === '1' && this.requireVerifiedPush) {
        txid = randomTxid();
        this.preauthTransactions.set(txid, { user_id: user.user_id, expiresAt: this.now() + this.pushLifetimeSeconds * 1000, used: false });
      }
      return {
        result: 'auth',
        status_msg: 'Account is active',
        ...(txid ? { txid } : {}),
        devices: [
          ...phones.map((x) => ({
            device: x.phone_id,
            type: 'phone',
            number: `XXX-XXX-${x.number.slice(-4)}`,
            name: x.name,
            display_name: x.name,
            capabilities: x.capabilities,
          })),
          ...tokens.map((t) => ({ device: t.token_id, type: 'token', capabilities: ['mobile_otp'] })),
        ],
      };
    });
    authApi('POST', '/auth/v2/auth', (p) => {
      const user = this.authUser(p);
      const factor = this.required(p, 'factor');
      const ipaddr = this.ipaddrOf(p);
      if (!user) return { result: 'deny', status: 'deny', status_msg: 'Enroll an authentication device to proceed' };
      if (user.status === 'disabled') return { result: 'deny', status: 'deny', status_msg: 'Your account is disabled' };
      if (user.status === 'locked out') return { result: 'deny', status: 'locked_out', status_msg: 'Your account is locked out' };
      if (user.status === 'bypass') return { result: 'allow', status: 'bypass', status_msg: 'Allowing unknown user' };
      if (factor === 'passcode') {
        const passcode = this.required(p, 'passcode');
        if (this.checkPasscode(user, passcode)) {
          user.failedAttempts = 0;
          return { result: 'allow', status: 'allow', status_msg: 'Success. Logging you in...' };
        }
        user.failedAttempts += 1;
        if (user.failedAttempts >= this.lockoutThreshold) {
          user.status = 'locked out';
          user.lockout_reason = 'Failed Attempts';
          return {
            result: 'deny',
            status: 'locked_out',
            status_msg: 'Your account has been locked out due to excessive authentication failures.',
          };
        }
        return { result: 'deny', status: 'deny', status_msg: 'Incorrect passcode. Please try again.' };
      }
      if (factor === 'push') {
        const device = this.required(p, 'device');
        if (p.async !== '1') throw invalid('async');
        const phones = this.phonesOf(user.user_id).filter((x) => x.capabilities.includes('push'));
        const phone = device === 'auto' ? phones[0] : phones.find((x) => x.phone_id === device);
        if (!phone) throw invalid('device');
        // A preauth's txid: this user's, unused and live, or the request is refused. The push then
        // goes by that same id (as duo_unix's test server answers it).
        let verified = false;
        let txid = randomTxid();
        if (p.txid !== undefined) {
          const pre = this.preauthTransactions.get(p.txid);
          if (!pre || pre.user_id !== user.user_id || pre.used || this.now() >= pre.expiresAt) throw invalid('txid');
          pre.used = true;
          verified = true;
          txid = p.txid;
        }
        if (p.pushinfo !== undefined && Buffer.byteLength(p.pushinfo) >= 20_000) throw invalid('pushinfo');
        this.pushes.set(txid, {
          txid,
          user_id: user.user_id,
          phone_id: phone.phone_id,
          state: 'waiting',
          expiresAt: this.now() + this.pushLifetimeSeconds * 1000,
          verificationCode: verified ? String(randomInt(0, 1000)).padStart(3, '0') : null,
          type: p.type ?? null,
          displayUsername: p.display_username ?? null,
          pushinfo: p.pushinfo ?? null,
          ipaddr,
        });
        return { txid };
      }
      throw invalid('factor');
    });
    // Auth status is a long-poll at Duo: once the progress ("pushed") has been reported, the answer is
    // held until the state changes (answered, or expired as `timeout`). Duo's clients call it in a loop
    // with no time-out of their own: duo_unix (`duo_login`, "long-poll on txid"), duo_api_golang
    // (`AuthStatus`, its HTTP client without a time-out), duo_client_python (`Auth.auth_status`).
    authApi('GET', '/auth/v2/auth_status', async (p) => {
      const push = this.pushes.get(this.required(p, 'txid'));
      if (!push) throw invalid('txid');
      const expiresAt = push.expiresAt ?? Number.POSITIVE_INFINITY;
      while (push.state === 'waiting' && push.reportedWaiting && this.server) {
        if (this.now() >= expiresAt) {
          push.state = 'timeout';
          break;
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            this.pushWaiters.delete(wake);
            resolve();
          };
          // Looks again now and then, so that expiry on the real clock is seen too.
          const timer = setTimeout(wake, 50);
          this.pushWaiters.add(wake);
        });
      }
      if (push.state === 'waiting' && this.now() >= expiresAt) push.state = 'timeout';
      switch (push.state) {
        case 'waiting':
          push.reportedWaiting = true;
          return {
            result: 'waiting',
            status: 'pushed',
            // Verified Duo Push: the code to show, in the text meant for the user (duo_unix's test
            // server: "Please enter verification code 376 into Duo Mobile...").
            status_msg: push.verificationCode
              ? `Please enter verification code ${push.verificationCode} into Duo Mobile...`
              : 'Pushed a login request to your phone...',
          };
        case 'allow':
          return { result: 'allow', status: 'allow', status_msg: 'Success. Logging you in...' };
        case 'fraud':
          return { result: 'deny', status: 'fraud', status_msg: 'Login request reported as fraudulent.' };
        case 'timeout':
          return { result: 'deny', status: 'timeout', status_msg: 'Login timed out.' };
        default:
          return { result: 'deny', status: 'deny', status_msg: 'Login request denied.' };
      }
    });
  }
}
