import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { BYPASS_CODE_LIMITS } from '@mfa-portal/shared';

/**
 * Bypass-code rules (DESIGN.md "MFA rules"): 1 to 10 codes per request, valid from one
 * minute to 7 days and never unlimited, usable 1 to 10 times, at most 100 live codes per user,
 * shown once and stored only as keyed hashes (HMAC-SHA-256 with a server-side pepper, so a stolen
 * table cannot be brute-forced offline and a code can be looked up by its hash).
 */

export const BYPASS_MIN_COUNT = BYPASS_CODE_LIMITS.minCount;
export const BYPASS_MAX_COUNT = BYPASS_CODE_LIMITS.maxCount;
export const BYPASS_MIN_VALIDITY_SECONDS = BYPASS_CODE_LIMITS.minValiditySeconds;
export const BYPASS_MAX_VALIDITY_SECONDS = BYPASS_CODE_LIMITS.maxValiditySeconds;
export const BYPASS_MIN_REUSE = BYPASS_CODE_LIMITS.minReuse;
export const BYPASS_MAX_REUSE = BYPASS_CODE_LIMITS.maxReuse;
export const MAX_LIVE_CODES_PER_USER = BYPASS_CODE_LIMITS.maxLivePerUser;
export const BYPASS_CODE_DIGITS = 9;
/** Minimum pepper length for the keyed hash. */
export const BYPASS_PEPPER_MIN_BYTES = 32;

export interface BypassRequest {
  count: number;
  validitySeconds: number;
  reuseCount: number;
}

export type BypassProblemCode =
  | 'bypass.count_out_of_range'
  | 'bypass.validity_too_short'
  | 'bypass.validity_too_long'
  | 'bypass.validity_invalid'
  | 'bypass.reuse_out_of_range'
  | 'bypass.too_many_live_codes';

export interface BypassProblem {
  field: keyof BypassRequest;
  code: BypassProblemCode;
}

/**
 * Every rule a bypass-code request breaks (empty when it is acceptable). A count or reuse count that
 * is not an integer is out of range; a validity of 0 (Duo's "unlimited") or below is too short,
 * Infinity is too long, NaN or a fraction is invalid.
 * With `live`, also refuses a request that would leave more than MAX_LIVE_CODES_PER_USER live codes
 * (`liveCodes` the user has now; ignored when `replaceExisting`, since those are revoked).
 */
export function validateBypassRequest(request: BypassRequest, live?: { liveCodes: number; replaceExisting: boolean }): BypassProblem[] {
  const problems: BypassProblem[] = [];
  const countOk = inRange(request.count, BYPASS_MIN_COUNT, BYPASS_MAX_COUNT);
  if (!countOk) problems.push({ field: 'count', code: 'bypass.count_out_of_range' });

  const validity = request.validitySeconds;
  if (validity > BYPASS_MAX_VALIDITY_SECONDS) {
    problems.push({ field: 'validitySeconds', code: 'bypass.validity_too_long' });
  } else if (validity < BYPASS_MIN_VALIDITY_SECONDS) {
    problems.push({ field: 'validitySeconds', code: 'bypass.validity_too_short' });
  } else if (!Number.isInteger(validity)) {
    problems.push({ field: 'validitySeconds', code: 'bypass.validity_invalid' });
  }

  if (!inRange(request.reuseCount, BYPASS_MIN_REUSE, BYPASS_MAX_REUSE)) {
    problems.push({ field: 'reuseCount', code: 'bypass.reuse_out_of_range' });
  }

  if (countOk && live && !live.replaceExisting && live.liveCodes + request.count > MAX_LIVE_CODES_PER_USER) {
    problems.push({ field: 'count', code: 'bypass.too_many_live_codes' });
  }
  return problems;
}

function inRange(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

/** When a code created at `now` with `validitySeconds` expires. */
export function bypassExpiresAt(now: Date, validitySeconds: number): Date {
  return new Date(now.getTime() + validitySeconds * 1000);
}

/** A fresh code: 9 uniformly random digits (leading zeros kept), normalised form. */
export function generateBypassCode(): string {
  return randomInt(0, 10 ** BYPASS_CODE_DIGITS)
    .toString()
    .padStart(BYPASS_CODE_DIGITS, '0');
}

/** The display form shown once to the user: `123 456 789`. */
export function formatBypassCode(code: string): string {
  const normal = normalizeBypassCode(code);
  if (normal === null) throw new TypeError('Not a bypass code.');
  return `${normal.slice(0, 3)} ${normal.slice(3, 6)} ${normal.slice(6)}`;
}

/**
 * What a user typed, as the 9 digits to check: spaces and dashes removed. Null when anything else
 * remains or the length is not 9 (the caller answers "invalid code" without hashing).
 */
export function normalizeBypassCode(input: string): string | null {
  if (typeof input !== 'string' || input.length > 32) return null;
  const stripped = input.replace(/[\s-]/g, '');
  return /^[0-9]{9}$/.test(stripped) ? stripped : null;
}

/**
 * Keyed hash of a code (HMAC-SHA-256, lowercase hex), computed on the normalised form, so
 * `123 456 789` and `123456789` hash alike and the stored hash can be looked up directly.
 */
export function hashBypassCode(code: string, pepperKey: Buffer): string {
  if (!Buffer.isBuffer(pepperKey) || pepperKey.length < BYPASS_PEPPER_MIN_BYTES) {
    throw new TypeError(`The bypass-code pepper must be at least ${BYPASS_PEPPER_MIN_BYTES} bytes.`);
  }
  const normal = normalizeBypassCode(code);
  if (normal === null) throw new TypeError('Not a bypass code: normalise and reject bad input before hashing.');
  return createHmac('sha256', pepperKey).update(normal, 'ascii').digest('hex');
}

/** Constant-time check of a typed code against one stored hash. False for malformed input. */
export function bypassCodeMatches(input: string, storedHash: string, pepperKey: Buffer): boolean {
  const normal = normalizeBypassCode(input);
  if (normal === null || !/^[0-9a-f]{64}$/.test(storedHash)) return false;
  const actual = Buffer.from(hashBypassCode(normal, pepperKey), 'hex');
  return timingSafeEqual(actual, Buffer.from(storedHash, 'hex'));
}

export interface BypassCodeRecord {
  usesLeft: number;
  expiresAt: Date;
  revokedAt: Date | null;
}

export type BypassCodeState = 'usable' | 'revoked' | 'expired' | 'used_up';

/** Why a stored code can or cannot be used at `now` (revoked first, then expired, then used up). */
export function bypassCodeState(code: BypassCodeRecord, now: Date): BypassCodeState {
  if (code.revokedAt !== null) return 'revoked';
  if (!(now.getTime() < code.expiresAt.getTime())) return 'expired';
  if (!(code.usesLeft > 0)) return 'used_up';
  return 'usable';
}

/** A code is usable when it is not revoked, not yet expired (expiry is exclusive) and has uses left. */
export function isBypassCodeUsable(code: BypassCodeRecord, now: Date): boolean {
  return bypassCodeState(code, now) === 'usable';
}
