import { createHash, createHmac } from 'node:crypto';

/**
 * Duo's request signing (Admin API, Auth API), written from Duo's published scheme:
 *
 * - HTTP Basic authentication: user = integration key, password = hex(HMAC-SHA512(secret key, canonical)).
 * - `Date` header in RFC 2822 form (`Tue, 21 Aug 2012 17:29:18 -0000`), the same text as in the canonical string.
 * - Canonical string v2: lines joined by "\n":
 *     date, METHOD, host (lower case), path, canonical parameters
 *   Canonical parameters: every key and value UTF-8 percent-encoded (RFC 3986: only A–Z a–z 0–9 - _ . ~
 *   stay as they are, hex digits upper case, a space is %20), `key=value` pairs sorted by encoded key
 *   (then by value), joined by `&`. These are the query parameters (GET, DELETE) or the
 *   `application/x-www-form-urlencoded` body parameters (POST).
 * - Canonical string v5: the v2 lines, then hex(SHA-512(body)) and hex(SHA-512(X-Duo headers)), where
 *   the body is the JSON text sent (POST with a JSON body; its parameters are then not on the parameters
 *   line) or the empty string, and the X-Duo headers are the `X-Duo-*` headers sent, names lower-cased,
 *   sorted by name, name and value joined by NUL characters (the hash of "" when there are none).
 *
 * Pure functions: the HTTP client (client.ts) and the test stand-in both use them.
 */

export type DuoMethod = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
export type DuoParams = Readonly<Record<string, string>>;
export type SignatureVersion = 2 | 5;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const pad = (n: number) => String(n).padStart(2, '0');

/** RFC 2822 date in UTC, as Duo's own clients write it: `Tue, 21 Aug 2012 17:29:18 -0000`. */
export function formatDuoDate(date: Date): string {
  return `${DAYS[date.getUTCDay()]}, ${pad(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} -0000`;
}

/** Percent-encodes per RFC 3986 (what Duo's canonical form needs; encodeURIComponent leaves !'()* alone). */
export function duoEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The canonical parameters line (also the exact query string or form body the client sends). */
export function canonParams(params: DuoParams): string {
  return Object.entries(params)
    .map(([k, v]) => [duoEncode(k), duoEncode(v)] as const)
    .sort((a, b) => byCodeUnits(a[0], b[0]) || byCodeUnits(a[1], b[1]))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

export function sha512Hex(text: string): string {
  return createHash('sha512').update(text, 'utf8').digest('hex');
}

/** Checks the names of `X-Duo-*` headers (v5): the prefix, no NUL, no name twice. */
export function assertDuoHeaders(headers: Readonly<Record<string, string>>): void {
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!lower.startsWith('x-duo-')) throw new Error(`additional signed headers must start with X-Duo- (got ${name})`);
    if (lower.includes('\0') || value.includes('\0')) throw new Error('a NUL character is not allowed in a signed header');
    if (seen.has(lower)) throw new Error(`the header ${name} is given twice`);
    seen.add(lower);
  }
}

/** hex(SHA-512) of the X-Duo headers: lower-cased names, sorted, `name\0value\0name\0value`. */
export function hashDuoHeaders(headers: Readonly<Record<string, string>> = {}): string {
  const entries = Object.entries(headers)
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort((a, b) => byCodeUnits(a[0], b[0]));
  return sha512Hex(entries.flatMap(([k, v]) => [k, v]).join('\0'));
}

export interface CanonicalInput {
  date: string;
  method: DuoMethod;
  host: string;
  path: string;
  /** Query (GET, DELETE) or form-body parameters; `{}` for a JSON body. */
  params: DuoParams;
}

export function canonicalV2(input: CanonicalInput): string {
  return [input.date, input.method.toUpperCase(), input.host.toLowerCase(), input.path, canonParams(input.params)].join('\n');
}

export function canonicalV5(input: CanonicalInput & { body: string; duoHeaders?: Readonly<Record<string, string>> }): string {
  return [canonicalV2(input), sha512Hex(input.body), hashDuoHeaders(input.duoHeaders)].join('\n');
}

/** hex(HMAC-SHA512(secret key, canonical string)). */
export function hmacHex(secretKey: string, canonical: string): string {
  return createHmac('sha512', secretKey).update(canonical, 'utf8').digest('hex');
}

export function basicAuthorization(integrationKey: string, signatureHex: string): string {
  return `Basic ${Buffer.from(`${integrationKey}:${signatureHex}`, 'utf8').toString('base64')}`;
}

export interface SignInput extends CanonicalInput {
  integrationKey: string;
  secretKey: string;
  version: SignatureVersion;
  /** v5 only: the exact body text sent ('' for none). */
  body?: string;
  duoHeaders?: Readonly<Record<string, string>>;
}

/** The `Authorization` header of a request (the `Date` header must carry `input.date`). */
export function signRequest(input: SignInput): string {
  if (input.version === 2 && (input.body || Object.keys(input.duoHeaders ?? {}).length > 0)) {
    throw new Error('a JSON body or X-Duo headers need signature version 5');
  }
  if (input.duoHeaders) assertDuoHeaders(input.duoHeaders);
  const canonical = input.version === 5 ? canonicalV5({ ...input, body: input.body ?? '' }) : canonicalV2(input);
  return basicAuthorization(input.integrationKey, hmacHex(input.secretKey, canonical));
}
