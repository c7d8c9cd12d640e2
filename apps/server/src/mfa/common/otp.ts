import { randomBytes, timingSafeEqual } from 'node:crypto';
import { generateSync, generateURI, ScureBase32Plugin } from 'otplib';
import QRCode from 'qrcode';
import { D100_CODE_DIGITS } from '@mfa-portal/shared';

/**
 * One-time passcodes for the builtin provider:
 * - TOTP (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps) for authenticator apps;
 * - HOTP (RFC 4226: HMAC-SHA-1, 6 digits) for Duo D100 hardware tokens.
 *
 * otplib computes each code (it passes the RFC vectors); the acceptance rules are here and explicit:
 * a code is exactly 6 ASCII digits, every candidate in the window is compared in constant time,
 * a TOTP step at or below the last used step is refused as a replay, and an HOTP counter only moves
 * forward.
 */

export const OTP_DIGITS = D100_CODE_DIGITS;
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_SECRET_BYTES = 20;
/** Steps accepted on each side of the current one (±30 s of clock drift). */
export const TOTP_DEFAULT_WINDOW = 1;
/** Counters an HOTP token may have advanced past the expected one (presses not sent to us). */
export const HOTP_DEFAULT_LOOK_AHEAD = 10;
/** Look-ahead when claiming or resynchronising a token with consecutive codes. */
export const HOTP_SEQUENCE_DEFAULT_LOOK_AHEAD = 50;
/** Upper bounds that keep a verification cheap whatever the caller passes. */
const MAX_TOTP_WINDOW = 10;
const MAX_LOOK_AHEAD = 1000;

/** A secret as stored: Base32 text (authenticator apps) or raw bytes (e.g. a hex token seed, decoded). */
export type OtpSecret = string | Uint8Array;

const base32 = new ScureBase32Plugin();
const CODE_PATTERN = /^[0-9]{6}$/;

/** True when `code` is exactly six ASCII digits (no spaces, signs, full-width or other digits). */
export function isWellFormedOtp(code: unknown): code is string {
  return typeof code === 'string' && CODE_PATTERN.test(code);
}

/** A fresh TOTP secret: 20 random bytes, Base32 without padding (what authenticator apps expect). */
export function generateTotpSecret(): string {
  return totpSecretOf(randomBytes(TOTP_SECRET_BYTES));
}

/** Bytes as an authenticator app's Base32 secret (no padding). */
export function totpSecretOf(bytes: Uint8Array): string {
  return base32.encode(bytes, { padding: false });
}

/**
 * The `otpauth://totp/...` URI an authenticator app scans, or opens from a link on a phone. SHA-1, 6
 * digits and 30 s are the format's defaults, and otplib leaves them out; they are written anyway, as
 * some apps guess otherwise.
 */
export function otpauthUri(input: { secret: string; account: string; issuer: string }): string {
  const uri = generateURI({
    strategy: 'totp',
    secret: input.secret,
    label: input.account,
    issuer: input.issuer,
  });
  const stated = new URLSearchParams(uri.slice(uri.indexOf('?') + 1));
  const extra = [
    ['algorithm', 'SHA1'],
    ['digits', String(OTP_DIGITS)],
    ['period', String(TOTP_PERIOD_SECONDS)],
  ].filter(([name]) => !stated.has(name!));
  return extra.length ? `${uri}&${extra.map(([name, value]) => `${name}=${value}`).join('&')}` : uri;
}

/** The QR code of `uri` as an SVG document (string). */
export function qrCodeSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/** The TOTP time step containing `now`. */
export function totpStep(now: Date | number): number {
  const ms = typeof now === 'number' ? now : now.getTime();
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError('TOTP time must be a non-negative finite instant.');
  return Math.floor(ms / 1000 / TOTP_PERIOD_SECONDS);
}

/** The HOTP code at `counter` (a TOTP code is the HOTP code at the time step). */
export function hotpCode(secret: OtpSecret, counter: number): string {
  checkCounter(counter, 'counter');
  return generateSync({ strategy: 'hotp', secret, counter, digits: OTP_DIGITS, algorithm: 'sha1' });
}

/** The TOTP code for the step containing `now`. */
export function totpCode(secret: OtpSecret, now: Date | number): string {
  return hotpCode(secret, totpStep(now));
}

export type TotpResult = { ok: true; step: number } | { ok: false; reason: 'invalid' | 'replayed' };

/**
 * Verifies a TOTP code at `now`, within `window` steps either side. On success, store `step` as the
 * new `lastUsedStep`: a step at or below `lastUsedStep` is never accepted again (`replayed`).
 */
export function verifyTotp(input: {
  secret: OtpSecret;
  code: string;
  now: Date | number;
  lastUsedStep: number | null;
  window?: number;
}): TotpResult {
  const window = input.window ?? TOTP_DEFAULT_WINDOW;
  checkBound(window, MAX_TOTP_WINDOW, 'window');
  if (input.lastUsedStep !== null) checkCounter(input.lastUsedStep, 'lastUsedStep');
  const current = totpStep(input.now);
  if (!isWellFormedOtp(input.code)) return { ok: false, reason: 'invalid' };
  const given = Buffer.from(input.code, 'ascii');
  const secret = decodeSecret(input.secret);

  let accepted: number | null = null;
  let replayed = false;
  // Every candidate is computed and compared; the earliest fresh step wins.
  for (let step = Math.max(0, current - window); step <= current + window; step += 1) {
    if (!sameCode(given, hotpCode(secret, step))) continue;
    if (input.lastUsedStep !== null && step <= input.lastUsedStep) replayed = true;
    else if (accepted === null) accepted = step;
  }
  if (accepted !== null) return { ok: true, step: accepted };
  return { ok: false, reason: replayed ? 'replayed' : 'invalid' };
}

export type HotpResult = { ok: true; newCounter: number } | { ok: false };

/**
 * Verifies an HOTP code against counters `counter` (the next expected one) through
 * `counter + lookAhead`. On success `newCounter` is the matched counter + 1, always > `counter`;
 * store it. Counters below `counter` are never tried, so a used code never passes again.
 */
export function verifyHotp(input: { secret: OtpSecret; code: string; counter: number; lookAhead?: number }): HotpResult {
  return verifyHotpSequence({
    secret: input.secret,
    codes: [input.code],
    counter: input.counter,
    lookAhead: input.lookAhead ?? HOTP_DEFAULT_LOOK_AHEAD,
  });
}

/**
 * Verifies consecutive HOTP codes, as when claiming a token (2 codes, proof of possession) or
 * resynchronising it (3 codes). Finds the first position p in `counter`..`counter + lookAhead` where
 * `codes[i]` is the code at p + i for every i; on success `newCounter` is p + codes.length.
 */
export function verifyHotpSequence(input: {
  secret: OtpSecret;
  codes: readonly string[];
  counter: number;
  lookAhead?: number;
}): HotpResult {
  const lookAhead = input.lookAhead ?? HOTP_SEQUENCE_DEFAULT_LOOK_AHEAD;
  checkCounter(input.counter, 'counter');
  checkBound(lookAhead, MAX_LOOK_AHEAD, 'lookAhead');
  if (input.codes.length === 0) throw new RangeError('verifyHotpSequence needs at least one code.');
  if (!input.codes.every(isWellFormedOtp)) return { ok: false };
  const given = input.codes.map((code) => Buffer.from(code, 'ascii'));
  const secret = decodeSecret(input.secret);

  const last = input.counter + lookAhead + given.length - 1;
  if (!Number.isSafeInteger(last)) return { ok: false };
  const expected: string[] = [];
  for (let c = input.counter; c <= last; c += 1) expected.push(hotpCode(secret, c));

  let found: number | null = null;
  for (let offset = 0; offset <= lookAhead; offset += 1) {
    let all = true;
    given.forEach((code, i) => {
      all = sameCode(code, expected[offset + i] ?? '') && all;
    });
    if (all && found === null) found = input.counter + offset;
  }
  return found === null ? { ok: false } : { ok: true, newCounter: found + given.length };
}

function decodeSecret(secret: OtpSecret): Uint8Array {
  return typeof secret === 'string' ? base32.decode(secret) : secret;
}

function sameCode(given: Buffer, expected: string): boolean {
  const wanted = Buffer.from(expected, 'ascii');
  return wanted.length === given.length && timingSafeEqual(given, wanted);
}

function checkCounter(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative safe integer.`);
}

function checkBound(value: number, max: number, name: string): void {
  if (!Number.isInteger(value) || value < 0 || value > max) throw new RangeError(`${name} must be an integer from 0 to ${max}.`);
}
