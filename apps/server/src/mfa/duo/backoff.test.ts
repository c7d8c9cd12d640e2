import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, jitteredDelayMs, nextRetry, parseRetryAfter, type RetryPolicy } from './backoff.js';

/** Exponential backoff with full jitter, bounded by attempts and by total waiting time. */

const policy: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 4000,
  maxTotalWaitMs: 8000,
  rateLimitBaseDelayMs: 1000,
  rateLimitMaxDelayMs: 32000,
};

/** Runs the retry loop of a request that always fails; returns the waits. */
function waitsUntilGivingUp(p: RetryPolicy, random: () => number, floorMs: number | null = null): { waits: number[]; reason: string } {
  const waits: number[] = [];
  for (let attempt = 1; ; attempt += 1) {
    const d = nextRetry({ attempt, waitedMs: waits.reduce((a, b) => a + b, 0), floorMs }, p, random);
    if (!d.retry) return { waits, reason: d.reason };
    waits.push(d.waitMs);
  }
}

describe('jitteredDelayMs', () => {
  it('is a random share of min(cap, base·2^(n-1)): full jitter', () => {
    expect([1, 2, 3, 4, 5].map((n) => jitteredDelayMs(n, policy, () => 0.5))).toEqual([250, 500, 1000, 2000, 2000]);
    expect(jitteredDelayMs(3, policy, () => 0)).toBe(0);
    expect(jitteredDelayMs(3, policy, () => 0.999999)).toBe(1999);
  });

  it('stays in [0, ceiling) for any retry number and random value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, r) => {
        const d = jitteredDelayMs(n, policy, () => r);
        const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
        return Number.isInteger(d) && d >= 0 && d < ceiling;
      }),
    );
  });
});

describe('nextRetry', () => {
  it('never makes more than maxAttempts attempts nor waits longer than maxTotalWaitMs in all', () => {
    fc.assert(
      fc.property(
        fc.record({
          maxAttempts: fc.integer({ min: 1, max: 12 }),
          baseDelayMs: fc.integer({ min: 1, max: 2000 }),
          maxDelayMs: fc.integer({ min: 1, max: 20000 }),
          maxTotalWaitMs: fc.integer({ min: 0, max: 30000 }),
          rateLimitBaseDelayMs: fc.constant(1000),
          rateLimitMaxDelayMs: fc.constant(32000),
        }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 20 }),
        fc.option(fc.integer({ min: 0, max: 40000 }), { nil: null }),
        (p, randoms, floor) => {
          let i = 0;
          const { waits } = waitsUntilGivingUp(p, () => randoms[i++ % randoms.length]!, floor);
          return waits.length + 1 <= p.maxAttempts && waits.reduce((a, b) => a + b, 0) <= p.maxTotalWaitMs && waits.every((w) => w >= 0);
        },
      ),
    );
  });

  it('with the defaults: at most 4 attempts and 8 s of waiting', () => {
    expect(DEFAULT_RETRY_POLICY).toMatchObject({ maxAttempts: 4, maxTotalWaitMs: 8000 });
    expect(waitsUntilGivingUp(DEFAULT_RETRY_POLICY, () => 0.5)).toEqual({ waits: [250, 500, 1000], reason: 'attempts' });
  });

  it('cuts the last wait to the budget, then gives up for the budget', () => {
    expect(waitsUntilGivingUp({ ...policy, maxAttempts: 10, maxTotalWaitMs: 1000 }, () => 0.9999)).toEqual({
      waits: [499, 501],
      reason: 'budget',
    });
  });

  it('waits at least Retry-After, and gives up at once when Retry-After does not fit the budget', () => {
    expect(nextRetry({ attempt: 1, waitedMs: 0, floorMs: 3000 }, policy, () => 0.5)).toEqual({ retry: true, waitMs: 3000 });
    expect(nextRetry({ attempt: 1, waitedMs: 0, floorMs: 9000 }, policy, () => 0.5)).toEqual({ retry: false, reason: 'budget' });
    expect(nextRetry({ attempt: 2, waitedMs: 6000, floorMs: 3000 }, policy, () => 0.5)).toEqual({ retry: false, reason: 'budget' });
  });

  it('after a 429: Duo’s schedule (1 s doubling to 32 s, plus under 1 s at random), Retry-After when longer, bounded by the budget', () => {
    const roomy = { ...policy, maxAttempts: 10, maxTotalWaitMs: 120_000 };
    const waits: number[] = [];
    for (let attempt = 1, waited = 0; ; attempt += 1) {
      const d = nextRetry({ attempt, waitedMs: waited, rateLimited: true }, roomy, () => 0);
      if (!d.retry) break;
      waits.push(d.waitMs);
      waited += d.waitMs;
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 32000]);
    expect(nextRetry({ attempt: 1, waitedMs: 0, rateLimited: true }, roomy, () => 0.5)).toEqual({ retry: true, waitMs: 1500 });
    expect(nextRetry({ attempt: 1, waitedMs: 0, rateLimited: true, floorMs: 5000 }, roomy, () => 0)).toEqual({ retry: true, waitMs: 5000 });
    // The next scheduled wait does not fit what is left of the budget: given up, not retried early.
    expect(nextRetry({ attempt: 3, waitedMs: 5000, rateLimited: true }, policy, () => 0)).toEqual({ retry: false, reason: 'budget' });
  });

  it('maxAttempts 1 never retries', () => {
    expect(nextRetry({ attempt: 1, waitedMs: 0 }, { ...policy, maxAttempts: 1 }, () => 0.5)).toEqual({ retry: false, reason: 'attempts' });
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});
