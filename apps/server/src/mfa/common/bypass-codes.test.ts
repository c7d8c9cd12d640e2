import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BYPASS_VALIDITY_SECONDS } from '@mfa-portal/shared';
import {
  BYPASS_MAX_COUNT,
  BYPASS_MAX_REUSE,
  BYPASS_MAX_VALIDITY_SECONDS,
  BYPASS_MIN_COUNT,
  BYPASS_MIN_REUSE,
  BYPASS_MIN_VALIDITY_SECONDS,
  MAX_LIVE_CODES_PER_USER,
  bypassCodeMatches,
  bypassCodeState,
  bypassExpiresAt,
  formatBypassCode,
  generateBypassCode,
  hashBypassCode,
  isBypassCodeUsable,
  normalizeBypassCode,
  validateBypassRequest,
} from './bypass-codes.js';

const PEPPER = Buffer.alloc(32, 7);
const OTHER_PEPPER = Buffer.alloc(32, 8);
const OK = { count: 5, validitySeconds: 3600, reuseCount: 1 };
const PROPERTY_RUNS = { numRuns: 150 };

describe('bypass-code limits', () => {
  it('are the documented ones, validity bounded by the shared 7 days', () => {
    expect([BYPASS_MIN_COUNT, BYPASS_MAX_COUNT]).toEqual([1, 10]);
    expect([BYPASS_MIN_REUSE, BYPASS_MAX_REUSE]).toEqual([1, 10]);
    expect(BYPASS_MIN_VALIDITY_SECONDS).toBe(60);
    expect(BYPASS_MAX_VALIDITY_SECONDS).toBe(MAX_BYPASS_VALIDITY_SECONDS);
    expect(BYPASS_MAX_VALIDITY_SECONDS).toBe(604_800);
    expect(MAX_LIVE_CODES_PER_USER).toBe(100);
  });
});

describe('validateBypassRequest', () => {
  it('accepts a request inside every bound, including the bounds themselves', () => {
    expect(validateBypassRequest(OK)).toEqual([]);
    expect(validateBypassRequest({ count: 1, validitySeconds: 60, reuseCount: 1 })).toEqual([]);
    expect(validateBypassRequest({ count: 10, validitySeconds: 604_800, reuseCount: 10 })).toEqual([]);
  });

  it.each([0, 11, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses count %s', (count) => {
    expect(validateBypassRequest({ ...OK, count })).toEqual([{ field: 'count', code: 'bypass.count_out_of_range' }]);
  });

  it.each([0, 11, -3, 2.5, Number.NaN])('refuses reuse count %s', (reuseCount) => {
    expect(validateBypassRequest({ ...OK, reuseCount })).toEqual([{ field: 'reuseCount', code: 'bypass.reuse_out_of_range' }]);
  });

  it.each([
    [604_801, 'bypass.validity_too_long'],
    [Number.POSITIVE_INFINITY, 'bypass.validity_too_long'],
    [10 * 365 * 86_400, 'bypass.validity_too_long'],
    [59, 'bypass.validity_too_short'],
    [0, 'bypass.validity_too_short'],
    [-60, 'bypass.validity_too_short'],
    [Number.NaN, 'bypass.validity_invalid'],
    [120.5, 'bypass.validity_invalid'],
  ])('refuses validity %s seconds with %s', (validitySeconds, code) => {
    expect(validateBypassRequest({ ...OK, validitySeconds })).toEqual([{ field: 'validitySeconds', code }]);
  });

  it('reports every problem at once, by field', () => {
    expect(validateBypassRequest({ count: 0, validitySeconds: 0, reuseCount: 0 })).toEqual([
      { field: 'count', code: 'bypass.count_out_of_range' },
      { field: 'validitySeconds', code: 'bypass.validity_too_short' },
      { field: 'reuseCount', code: 'bypass.reuse_out_of_range' },
    ]);
  });

  it('keeps a user at or below 100 live codes unless the existing ones are replaced', () => {
    expect(validateBypassRequest({ ...OK, count: 5 }, { liveCodes: 95, replaceExisting: false })).toEqual([]);
    expect(validateBypassRequest({ ...OK, count: 6 }, { liveCodes: 95, replaceExisting: false })).toEqual([
      { field: 'count', code: 'bypass.too_many_live_codes' },
    ]);
    expect(validateBypassRequest({ ...OK, count: 10 }, { liveCodes: 100, replaceExisting: true })).toEqual([]);
  });
});

describe('bypassExpiresAt', () => {
  it('adds the validity to now', () => {
    expect(bypassExpiresAt(new Date('2025-01-01T00:00:00Z'), 3600).toISOString()).toBe('2025-01-01T01:00:00.000Z');
  });
});

describe('generateBypassCode', () => {
  it('gives 9 digits, and different codes each time', () => {
    const codes = Array.from({ length: 200 }, generateBypassCode);
    for (const code of codes) expect(code).toMatch(/^[0-9]{9}$/);
    expect(new Set(codes).size).toBeGreaterThan(195);
  });

  it('draws every digit uniformly, leading zeros included', () => {
    // 5,000 codes: each digit value appears about 500 times in each position (σ ≈ 21).
    const counts = Array.from({ length: 9 }, () => new Array<number>(10).fill(0));
    for (let n = 0; n < 5000; n += 1) {
      [...generateBypassCode()].forEach((digit, position) => {
        const row = counts[position] as number[];
        row[Number(digit)] = (row[Number(digit)] ?? 0) + 1;
      });
    }
    for (const row of counts) for (const count of row) expect(count).toBeGreaterThan(380);
    for (const row of counts) for (const count of row) expect(count).toBeLessThan(620);
  });
});

describe('formatBypassCode and normalizeBypassCode', () => {
  it('formats in groups of three and normalises what users type', () => {
    expect(formatBypassCode('012345678')).toBe('012 345 678');
    expect(normalizeBypassCode('012 345 678')).toBe('012345678');
    expect(normalizeBypassCode('012-345-678')).toBe('012345678');
    expect(normalizeBypassCode(' 012345678\t')).toBe('012345678');
  });

  it('rejects anything that is not 9 digits once spaces and dashes are gone', () => {
    for (const bad of ['', '12345678', '1234567890', '12345678a', '１２３４５６７８９', '123.456.789', '+12345678', '1'.repeat(40)]) {
      expect(normalizeBypassCode(bad), bad).toBeNull();
    }
    expect(() => formatBypassCode('1234')).toThrow(TypeError);
  });
});

describe('hashBypassCode', () => {
  it('is HMAC-SHA-256 of the normalised code with the pepper, in hex', () => {
    const expected = createHmac('sha256', PEPPER).update('123456789').digest('hex');
    expect(hashBypassCode('123456789', PEPPER)).toBe(expected);
    expect(hashBypassCode('123 456 789', PEPPER)).toBe(expected);
  });

  it('depends on the pepper and the code', () => {
    expect(hashBypassCode('123456789', OTHER_PEPPER)).not.toBe(hashBypassCode('123456789', PEPPER));
    expect(hashBypassCode('123456788', PEPPER)).not.toBe(hashBypassCode('123456789', PEPPER));
    // Not a bare hash: an unkeyed SHA-256 of the code would be brute-forced in seconds.
    expect(hashBypassCode('123456789', PEPPER)).not.toBe(createHmac('sha256', Buffer.alloc(0)).update('123456789').digest('hex'));
  });

  it('refuses a short pepper and a malformed code', () => {
    expect(() => hashBypassCode('123456789', Buffer.alloc(16))).toThrow(TypeError);
    expect(() => hashBypassCode('12345', PEPPER)).toThrow(TypeError);
  });

  it('property: a generated code matches its own hash and no other code does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), (otherNumber) => {
        const code = generateBypassCode();
        expect(code).toMatch(/^[0-9]{9}$/);
        const hash = hashBypassCode(code, PEPPER);
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
        expect(bypassCodeMatches(formatBypassCode(code), hash, PEPPER)).toBe(true);
        expect(bypassCodeMatches(code, hash, OTHER_PEPPER)).toBe(false);
        const other = String(otherNumber).padStart(9, '0');
        fc.pre(other !== code);
        expect(hashBypassCode(other, PEPPER)).not.toBe(hash);
        expect(bypassCodeMatches(other, hash, PEPPER)).toBe(false);
      }),
      PROPERTY_RUNS,
    );
  });

  it('bypassCodeMatches is false for malformed input or hash', () => {
    const hash = hashBypassCode('123456789', PEPPER);
    expect(bypassCodeMatches('12345678', hash, PEPPER)).toBe(false);
    expect(bypassCodeMatches('123456789', hash.toUpperCase(), PEPPER)).toBe(false);
    expect(bypassCodeMatches('123456789', hash.slice(2), PEPPER)).toBe(false);
  });
});

describe('isBypassCodeUsable', () => {
  const now = new Date('2025-06-01T12:00:00Z');
  const later = new Date(now.getTime() + 60_000);
  const usable = { usesLeft: 1, expiresAt: later, revokedAt: null };

  it('is true for a live code with uses left', () => {
    expect(isBypassCodeUsable(usable, now)).toBe(true);
    expect(bypassCodeState(usable, now)).toBe('usable');
  });

  it('is false once expired (the expiry instant itself included)', () => {
    expect(bypassCodeState({ ...usable, expiresAt: now }, now)).toBe('expired');
    expect(isBypassCodeUsable({ ...usable, expiresAt: new Date(now.getTime() - 1) }, now)).toBe(false);
    expect(isBypassCodeUsable(usable, later)).toBe(false);
  });

  it('is false when used up or revoked', () => {
    expect(bypassCodeState({ ...usable, usesLeft: 0 }, now)).toBe('used_up');
    expect(isBypassCodeUsable({ ...usable, usesLeft: -1 }, now)).toBe(false);
    expect(bypassCodeState({ ...usable, revokedAt: now }, now)).toBe('revoked');
  });
});
