import { LOCKOUT_STATUS_REASON, lockExpired, type UserRow } from './builtin-mapping.js';
import type { BuiltinRepository } from './builtin.repository.js';
import { nextLockoutState, type LockoutDecision, type LockoutPolicy } from './lockout.js';

/**
 * The lockout state written after a check of the user (a passcode, a push's number), on the user row
 * the caller locked: a failure counts and may lock the account; a success clears the count. Callers
 * do not check anything for a user whose lock is still running.
 */

export async function recordFailure(r: BuiltinRepository, user: UserRow, now: Date, policy: LockoutPolicy): Promise<LockoutDecision> {
  const expired = lockExpired(user, now);
  const decision = nextLockoutState({ failures: user.failed_attempts, lockedUntil: user.locked_until }, 'failure', now, policy);
  await r.updateUser(user.id, {
    failed_attempts: decision.failures,
    locked_until: decision.lockedUntil,
    updated_at: now,
    ...(decision.justLocked
      ? { status: 'locked_out', status_reason: LOCKOUT_STATUS_REASON }
      : expired
        ? { status: 'active', status_reason: null }
        : {}),
  });
  return decision;
}

export async function recordSuccess(r: BuiltinRepository, user: UserRow, now: Date): Promise<void> {
  const expired = lockExpired(user, now);
  if (user.failed_attempts !== 0 || user.locked_until !== null || expired) {
    await r.updateUser(user.id, {
      failed_attempts: 0,
      locked_until: null,
      updated_at: now,
      ...(expired ? { status: 'active', status_reason: null } : {}),
    });
  }
}
