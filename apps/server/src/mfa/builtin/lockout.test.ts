import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCKOUT_POLICY, lockStatus, nextLockoutState, type LockoutState } from './lockout.js';

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
