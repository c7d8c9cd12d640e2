import { createHash } from 'node:crypto';

/**
 * Hash chain over the append-only audit table, so tampering with the log shows. Each row stores the hash of the
 * previous row (`prevHash`) and its own `hash = sha256(prevHash + canonical(event))`, so editing,
 * deleting or reordering any row breaks the chain at that row (or the next one).
 *
 * Limits, by design of a chain: removing rows at the *end* leaves a valid shorter chain, so keep the
 * latest hash somewhere else too (and pass it as `expectedHead`); appending must be serialised (one
 * writer holds the head while it inserts).
 *
 * An audit event never holds a secret: details with keys naming a code, secret, passcode, seed or
 * password are refused (error codes belong in `reason`).
 */

export const GENESIS_HASH = '0'.repeat(64);
const HASH_PATTERN = /^[0-9a-f]{64}$/;
const CANONICAL_VERSION = 1;

export type AuditDetails = Readonly<Record<string, unknown>>;

export interface AuditEvent {
  id: string;
  occurredAt: Date | string;
  actorUpn: string | null;
  actorRoles: readonly string[];
  /** The user the action is about (UPN), null when none. */
  target: string | null;
  action: string;
  outcome: string;
  reason: string | null;
  requestId: string | null;
  clientAddress: string | null;
  details: AuditDetails | null;
  /** The client's User-Agent (0014); hashed only when present, so older rows keep their hashes. */
  userAgent?: string | null;
}

export interface ChainedAuditEvent extends AuditEvent {
  prevHash: string;
  hash: string;
}

export type ChainVerification =
  { ok: true; count: number; head: string } | { ok: false; brokenAt: number; id: string | null; reason: 'hash_mismatch' | 'prev_mismatch' };

export class AuditSecretError extends Error {
  override readonly name = 'AuditSecretError';
  constructor(readonly path: string) {
    super(`Audit details must not hold secrets or codes: refused key "${path}".`);
  }
}

/**
 * The canonical text that is hashed: JSON with a fixed key order for the event's fields and sorted
 * keys inside `details`, the time as an ISO-8601 UTC string. Throws AuditSecretError when details
 * hold a secret-like key, TypeError when they hold a non-JSON value or the time is invalid.
 */
export function canonicalAuditEvent(event: AuditEvent): string {
  if (event.details) assertNoSecrets(event.details, 'details');
  return canonical(event);
}

/**
 * The canonical text of an event already stored, exactly as its hash was taken: without the secret
 * check, which was made when the event was written (a rule added since must not make a stored event
 * unreadable, e.g. to a SIEM stream that sends it later).
 */
export function storedCanonicalText(event: AuditEvent): string {
  return canonical(event);
}

/** `sha256(prevHash + canonicalAuditEvent(event))`, lowercase hex. */
export function chainHash(prevHash: string, event: AuditEvent): string {
  if (!HASH_PATTERN.test(prevHash)) throw new TypeError('prevHash must be 64 lowercase hex digits.');
  return sha256(prevHash + canonicalAuditEvent(event));
}

/**
 * Checks rows in chain order (oldest first). The first row must follow `anchor` (GENESIS_HASH for a
 * whole table; a known row's hash when checking from there on). Reports the first broken row:
 * `prev_mismatch` when its `prevHash` is not the previous row's hash (a row before it was deleted,
 * or rows were reordered), `hash_mismatch` when its own content no longer gives its hash (edited).
 * With `expectedHead`, the last row's hash must equal it (detects rows removed at the end).
 */
export function verifyChain(
  rows: readonly ChainedAuditEvent[],
  options: { anchor?: string; expectedHead?: string } = {},
): ChainVerification {
  let expectedPrev = options.anchor ?? GENESIS_HASH;
  for (const [index, row] of rows.entries()) {
    const id = typeof row.id === 'string' ? row.id : null;
    if (row.prevHash !== expectedPrev) return { ok: false, brokenAt: index, id, reason: 'prev_mismatch' };
    if (rehash(row) !== row.hash) return { ok: false, brokenAt: index, id, reason: 'hash_mismatch' };
    expectedPrev = row.hash;
  }
  if (options.expectedHead !== undefined && options.expectedHead !== expectedPrev) {
    // The stored head is not the last row's hash: rows after it are missing.
    return { ok: false, brokenAt: rows.length, id: null, reason: 'prev_mismatch' };
  }
  return { ok: true, count: rows.length, head: expectedPrev };
}

/** Recomputes a stored row's hash; a row that cannot be canonicalised cannot match any hash. */
function rehash(row: ChainedAuditEvent): string | null {
  try {
    // No secret check here: a tampered row must be reported, not thrown.
    return HASH_PATTERN.test(row.prevHash) ? sha256(row.prevHash + canonical(row)) : null;
  } catch {
    return null;
  }
}

function canonical(event: AuditEvent): string {
  const occurredAt = new Date(event.occurredAt);
  if (Number.isNaN(occurredAt.getTime())) throw new TypeError('occurredAt is not a valid time.');
  if (!Array.isArray(event.actorRoles) || !event.actorRoles.every((r) => typeof r === 'string')) {
    throw new TypeError('actorRoles must be an array of strings.');
  }
  // Fixed key order; absent optional fields are null, as the database returns them.
  return JSON.stringify({
    v: CANONICAL_VERSION,
    id: requiredString(event.id, 'id'),
    occurredAt: occurredAt.toISOString(),
    actorUpn: optionalString(event.actorUpn, 'actorUpn'),
    actorRoles: [...event.actorRoles],
    target: optionalString(event.target, 'target'),
    action: requiredString(event.action, 'action'),
    outcome: requiredString(event.outcome, 'outcome'),
    reason: optionalString(event.reason, 'reason'),
    requestId: optionalString(event.requestId, 'requestId'),
    clientAddress: optionalString(event.clientAddress, 'clientAddress'),
    details: event.details === null || event.details === undefined ? null : canonicalJson(event.details, 'details'),
    ...(event.userAgent === null || event.userAgent === undefined ? {} : { userAgent: optionalString(event.userAgent, 'userAgent') }),
  });
}

function requiredString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${name} must be a non-empty string.`);
  return value;
}

function optionalString(value: unknown, name: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string or null.`);
  return value;
}

/**
 * A JSON value with object keys sorted, so that the same data always gives the same text whatever the
 * insertion order (and after a round trip through a jsonb column). Undefined object members are
 * dropped, as JSON does; other non-JSON values are refused.
 */
function canonicalJson(value: unknown, path: string): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${path} is not a finite number.`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item, i) => canonicalJson(item, `${path}[${i}]`));
  if (typeof value === 'object' && isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) out[key] = canonicalJson(member, `${path}.${key}`);
    }
    return out;
  }
  throw new TypeError(`${path} is not a JSON value.`);
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Substrings that make a key secret-like wherever they appear (`totpSecret`, `seedHex`, `newPassword`). */
const SECRET_SUBSTRINGS = ['secret', 'passcode', 'password', 'passwd', 'seed'];
/** Whole words that do (`code`, `bypass_codes`, `otp`), and key endings (`bypasscode`). */
const SECRET_WORDS = new Set(['code', 'codes', 'otp', 'otps', 'pin', 'pwd']);

/** True when a details key names something that may hold a secret or a code. */
export function isSecretLikeKey(key: string): boolean {
  const compact = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (SECRET_SUBSTRINGS.some((s) => compact.includes(s))) return true;
  if (compact.endsWith('code') || compact.endsWith('codes')) return true;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => SECRET_WORDS.has(w));
}

/** Throws AuditSecretError when any key, at any depth, is secret-like. */
export function assertNoSecrets(value: unknown, path = 'details'): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertNoSecrets(item, `${path}[${i}]`));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (isSecretLikeKey(key)) throw new AuditSecretError(`${path}.${key}`);
      assertNoSecrets(member, `${path}.${key}`);
    }
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
