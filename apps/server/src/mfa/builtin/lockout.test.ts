import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCKOUT_POLICY, lockStatus, nextLockoutState, RateLimiter, type LockoutState } from './lockout.js';

const T0 = new Date('2025-06-01T12:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const FRESH: LockoutState = { failures: 0, lockedUntil: null };

function fail(times: number, from: LockoutState = FRESH, now = T0) {
  let state = nextLockoutState(from, 'failure', now);
  for (let i = 1; i < times; i += 1) state = nextLockoutState(state, 'failure', now);
  return state;
}

describe('nextLockoutState', () => {
  it('defaults to 5 failures and 15 minutes', () => {
    expect(DEFAULT_LOCKOUT_POLICY).toEqual({ maxFailures: 5, lockMinutes: 15 });
  });

  it('counts failures without locking up to the fourth', () => {
    expect(fail(4)).toEqual({ failures: 4, lockedUntil: null, locked: false, justLocked: false, retryAfterSeconds: 0 });
  });

  it('locks on the fifth failure for 15 minutes, once', () => {
    const locked = fail(5);
    expect(locked).toEqual({ failures: 5, lockedUntil: at(900), locked: true, justLocked: true, retryAfterSeconds: 900 });
    const again = nextLockoutState(locked, 'failure', at(60));
    expect(again).toEqual({ failures: 5, lockedUntil: at(900), locked: true, justLocked: false, retryAfterSeconds: 840 });
  });

  it('does not let a success lift a running lock, nor failures extend it', () => {
    const locked = fail(5);
    expect(nextLockoutState(locked, 'success', at(899.5))).toMatchObject({ locked: true, lockedUntil: at(900), retryAfterSeconds: 1 });
    expect(nextLockoutState(locked, 'failure', at(899)).lockedUntil).toEqual(at(900));
  });

  it('starts over once the lock has expired', () => {
    const locked = fail(5);
    expect(nextLockoutState(locked, 'failure', at(900))).toEqual({
      failures: 1,
      lockedUntil: null,
      locked: false,
      justLocked: false,
      retryAfterSeconds: 0,
    });
    expect(nextLockoutState(locked, 'success', at(901))).toMatchObject({ failures: 0, locked: false });
  });

  it('clears the failures on success', () => {
    expect(nextLockoutState(fail(4), 'success', T0)).toEqual({
      failures: 0,
      lockedUntil: null,
      locked: false,
      justLocked: false,
      retryAfterSeconds: 0,
    });
    // So five failures in total, with a success among them, do not lock.
    expect(fail(2, nextLockoutState(fail(3), 'success', T0)).locked).toBe(false);
  });

  it('follows a custom policy and refuses a nonsensical one', () => {
    const policy = { maxFailures: 2, lockMinutes: 1 };
    const once = nextLockoutState(FRESH, 'failure', T0, policy);
    expect(once.locked).toBe(false);
    expect(nextLockoutState(once, 'failure', T0, policy)).toMatchObject({ locked: true, retryAfterSeconds: 60, lockedUntil: at(60) });
    expect(() => nextLockoutState(FRESH, 'failure', T0, { maxFailures: 0, lockMinutes: 1 })).toThrow(RangeError);
    expect(() => nextLockoutState(FRESH, 'failure', T0, { maxFailures: 3, lockMinutes: 0 })).toThrow(RangeError);
  });

  it('property: an attacker who only fails gets at most maxFailures checks per lock period', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 60 }), (gaps) => {
        let state: LockoutState = FRESH;
        let now = T0.getTime();
        let checkedSinceLock = 0;
        for (const gap of gaps) {
          now += gap * 1000;
          if (lockStatus(state, new Date(now)).locked) continue; // the service does not check the code
          checkedSinceLock += 1;
          const next = nextLockoutState(state, 'failure', new Date(now));
          expect(checkedSinceLock).toBeLessThanOrEqual(DEFAULT_LOCKOUT_POLICY.maxFailures);
          if (next.justLocked) {
            expect(checkedSinceLock).toBe(DEFAULT_LOCKOUT_POLICY.maxFailures);
            expect(next.lockedUntil?.getTime()).toBe(now + 15 * 60_000);
            checkedSinceLock = 0;
          }
          state = next;
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('lockStatus', () => {
  it('reports the remaining seconds, rounded up, and nothing once expired', () => {
    const state = { failures: 5, lockedUntil: at(900) };
    expect(lockStatus(state, at(0.2))).toEqual({ locked: true, retryAfterSeconds: 900 });
    expect(lockStatus(state, at(900))).toEqual({ locked: false, retryAfterSeconds: 0 });
    expect(lockStatus(FRESH, T0)).toEqual({ locked: false, retryAfterSeconds: 0 });
  });
});

describe('RateLimiter', () => {
  function limiter(limit = 3, intervalSeconds = 60, maxKeys?: number) {
    const clock = { now: 1_000_000 };
    return { clock, rl: new RateLimiter({ limit, intervalSeconds, now: () => clock.now, maxKeys }) };
  }

  it('allows a burst of `limit` attempts, then refuses with a retry delay', () => {
    const { rl } = limiter();
    expect([rl.consume('user:a'), rl.consume('user:a'), rl.consume('user:a')].every((d) => d.allowed)).toBe(true);
    // 3 per 60 s: one attempt comes back every 20 s.
    expect(rl.consume('user:a')).toEqual({ allowed: false, retryAfterSeconds: 20 });
  });

  it('refills over time, and waiting retryAfterSeconds is enough', () => {
    const { rl, clock } = limiter();
    for (let i = 0; i < 3; i += 1) rl.consume('k');
    clock.now += 5_000;
    const refused = rl.consume('k');
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 15 });
    clock.now += 14_000;
    expect(rl.consume('k').allowed).toBe(false);
    clock.now += 1_000;
    expect(rl.consume('k').allowed).toBe(true);
    expect(rl.consume('k').allowed).toBe(false);
  });

  it('never holds more than `limit` attempts however long it waits', () => {
    const { rl, clock } = limiter();
    clock.now += 3_600_000;
    const decisions = Array.from({ length: 4 }, () => rl.consume('k').allowed);
    expect(decisions).toEqual([true, true, true, false]);
  });

  it('keeps keys apart (per user and per address)', () => {
    const { rl } = limiter(1);
    expect(rl.consume('user:a').allowed).toBe(true);
    expect(rl.consume('user:a').allowed).toBe(false);
    expect(rl.consume('user:b').allowed).toBe(true);
    expect(rl.consume('addr:192.0.2.1').allowed).toBe(true);
  });

  it('does not let refused attempts push the delay further', () => {
    const { rl, clock } = limiter(1, 10);
    rl.consume('k');
    for (let i = 0; i < 20; i += 1) rl.consume('k');
    clock.now += 10_000;
    expect(rl.consume('k').allowed).toBe(true);
  });

  it('neither refills nor drains when the clock goes backwards', () => {
    const { rl, clock } = limiter(2, 10);
    rl.consume('k');
    clock.now -= 60_000;
    expect(rl.consume('k').allowed).toBe(true);
    expect(rl.consume('k').allowed).toBe(false);
  });

  it('reset forgets a key', () => {
    const { rl } = limiter(1);
    rl.consume('k');
    rl.reset('k');
    expect(rl.consume('k').allowed).toBe(true);
  });

  it('bounds its memory, dropping refilled keys first', () => {
    const { rl, clock } = limiter(2, 10, 3);
    rl.consume('busy');
    rl.consume('busy'); // empty bucket
    for (const key of ['a', 'b', 'c', 'd', 'e']) rl.consume(key);
    expect(rl.size).toBeLessThanOrEqual(3);
    clock.now += 100; // 'busy' is still nearly empty and must not have been dropped for a refilled key
    expect(rl.consume('busy').allowed).toBe(false);
  });

  it('refuses a nonsensical configuration', () => {
    expect(() => new RateLimiter({ limit: 0, intervalSeconds: 60 })).toThrow(RangeError);
    expect(() => new RateLimiter({ limit: 5, intervalSeconds: 0 })).toThrow(RangeError);
  });
});
