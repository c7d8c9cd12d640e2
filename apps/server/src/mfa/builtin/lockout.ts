/**
 * Passcode-failure policy (DESIGN.md "MFA rules": locked after repeated failures) as pure functions.
 * The lockout state lives in the database (it holds across server instances). The rate limits per
 * user and per address are the token buckets of lib/rate-limit.
 */

export interface LockoutPolicy {
  /** Consecutive failures that lock the user. */
  maxFailures: number;
  /** How long a lock lasts. */
  lockMinutes: number;
}

export const DEFAULT_LOCKOUT_POLICY: Readonly<LockoutPolicy> = Object.freeze({ maxFailures: 5, lockMinutes: 15 });

export { LOCKOUT_REASON } from '../port.js';

export interface LockoutState {
  failures: number;
  lockedUntil: Date | null;
}

export interface LockoutDecision extends LockoutState {
  /** The user is locked after this attempt (the attempt itself must not have been checked if it already was). */
  locked: boolean;
  /** True only on the failure that caused the lock (write the status and its reason, audit it once). */
  justLocked: boolean;
  /** Seconds until the lock ends (0 when not locked), for `Retry-After`. */
  retryAfterSeconds: number;
}

/** Whether `state` is locked at `now`, and for how long still. An expired lock is not a lock. */
export function lockStatus(state: LockoutState, now: Date): { locked: boolean; retryAfterSeconds: number } {
  if (state.lockedUntil === null || state.lockedUntil.getTime() <= now.getTime()) {
    return { locked: false, retryAfterSeconds: 0 };
  }
  return { locked: true, retryAfterSeconds: Math.ceil((state.lockedUntil.getTime() - now.getTime()) / 1000) };
}

/**
 * The state after one verification attempt with `outcome`.
 * - While a lock is running nothing changes (callers check {@link lockStatus} first and do not even
 *   verify the code; a success reported during a lock does not lift it, failures do not extend it).
 * - An expired lock starts over from zero failures.
 * - A success clears the failures; a failure counts, and the `maxFailures`-th locks for `lockMinutes`.
 */
export function nextLockoutState(
  state: LockoutState,
  outcome: 'success' | 'failure',
  now: Date,
  policy: LockoutPolicy = DEFAULT_LOCKOUT_POLICY,
): LockoutDecision {
  checkPolicy(policy);
  const current = lockStatus(state, now);
  if (current.locked) {
    return { failures: state.failures, lockedUntil: state.lockedUntil, justLocked: false, ...current };
  }
  const failuresBefore = state.lockedUntil === null ? Math.max(0, Math.trunc(state.failures) || 0) : 0;
  if (outcome === 'success') {
    return { failures: 0, lockedUntil: null, locked: false, justLocked: false, retryAfterSeconds: 0 };
  }
  const failures = failuresBefore + 1;
  if (failures >= policy.maxFailures) {
    const lockSeconds = policy.lockMinutes * 60;
    return {
      failures,
      lockedUntil: new Date(now.getTime() + lockSeconds * 1000),
      locked: true,
      justLocked: true,
      retryAfterSeconds: Math.ceil(lockSeconds),
    };
  }
  return { failures, lockedUntil: null, locked: false, justLocked: false, retryAfterSeconds: 0 };
}

function checkPolicy(policy: LockoutPolicy): void {
  if (!Number.isInteger(policy.maxFailures) || policy.maxFailures < 1) {
    throw new RangeError('maxFailures must be a positive integer.');
  }
  if (!Number.isFinite(policy.lockMinutes) || policy.lockMinutes <= 0) {
    throw new RangeError('lockMinutes must be a positive number.');
  }
}
