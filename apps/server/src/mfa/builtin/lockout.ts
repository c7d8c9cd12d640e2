/**
 * Passcode-failure policy (DESIGN.md "MFA rules": rate limited per user, locked after repeated
 * failures) as pure functions, plus a small in-memory rate limiter.
 *
 * The lockout state lives in the database (it holds across server instances). The rate limiter here
 * is the in-memory token bucket; the server shares the same rule across instances through the
 * database (../rate-limit-store.ts).
 */

export interface LockoutPolicy {
  /** Consecutive failures that lock the user. */
  maxFailures: number;
  /** How long a lock lasts. */
  lockMinutes: number;
}

export const DEFAULT_LOCKOUT_POLICY: Readonly<LockoutPolicy> = Object.freeze({ maxFailures: 5, lockMinutes: 15 });

/** The reason recorded with a lock caused by this policy. */
export const LOCKOUT_REASON = 'too_many_failed_attempts';

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

export interface RateLimitOptions {
  /** Attempts allowed in a burst (the bucket's size). */
  limit: number;
  /** Time for an empty bucket to refill completely: `limit` attempts per `intervalSeconds` on average. */
  intervalSeconds: number;
  /** Clock in milliseconds (default Date.now); inject one in tests. */
  now?: () => number;
  /** Keys kept in memory; beyond it, the buckets with the most tokens left are dropped first. */
  maxKeys?: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the next attempt would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** The bucket's size and refill rate (tokens per millisecond), after checking the options. */
export function tokenBucket(options: Pick<RateLimitOptions, 'limit' | 'intervalSeconds'>): { capacity: number; perMs: number } {
  if (!Number.isInteger(options.limit) || options.limit < 1) throw new RangeError('limit must be a positive integer.');
  if (!Number.isFinite(options.intervalSeconds) || options.intervalSeconds <= 0) {
    throw new RangeError('intervalSeconds must be a positive number.');
  }
  return { capacity: options.limit, perMs: options.limit / (options.intervalSeconds * 1000) };
}

/** Tokens after `elapsedMs` of refilling, never above the capacity; a clock that goes backwards refills nothing. */
export function refilledTokens(tokens: number, elapsedMs: number, capacity: number, perMs: number): number {
  return Math.min(capacity, tokens + Math.max(0, elapsedMs) * perMs);
}

/** Whole seconds (at least 1) until a bucket holding `tokens` has one whole token again. */
export function secondsUntilToken(tokens: number, perMs: number): number {
  return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
}

/**
 * Token bucket per key (e.g. `user:<id>` and `addr:<ip>`): each attempt takes a token; tokens come
 * back continuously at `limit / intervalSeconds` per second up to `limit`. Refused attempts take
 * nothing, so waiting `retryAfterSeconds` is always enough.
 */
export class RateLimiter {
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #now: () => number;
  readonly #maxKeys: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: RateLimitOptions) {
    const { capacity, perMs } = tokenBucket(options);
    this.#capacity = capacity;
    this.#perMs = perMs;
    this.#now = options.now ?? Date.now;
    this.#maxKeys = options.maxKeys ?? 10_000;
    if (!Number.isInteger(this.#maxKeys) || this.#maxKeys < 1) throw new RangeError('maxKeys must be a positive integer.');
  }

  consume(key: string): RateLimitDecision {
    const now = this.#now();
    const bucket = this.#refilled(key, now);
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.#prune(now);
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: secondsUntilToken(bucket.tokens, this.#perMs) };
  }

  /** Forgets a key (e.g. after a successful verification, if the caller wants that). */
  reset(key: string): void {
    this.#buckets.delete(key);
  }

  /** Number of keys held (for tests and metrics). */
  get size(): number {
    return this.#buckets.size;
  }

  #refilled(key: string, now: number): Bucket {
    const bucket = this.#buckets.get(key);
    if (!bucket) return { tokens: this.#capacity, updatedAt: now };
    return {
      tokens: refilledTokens(bucket.tokens, now - bucket.updatedAt, this.#capacity, this.#perMs),
      updatedAt: Math.max(now, bucket.updatedAt),
    };
  }

  /**
   * Forgetting a key refills its bucket, so the keys that are dropped are those with the most tokens
   * (refilled or nearly: nothing is lost); a throttled key is kept. Trims to 90% to amortise the sort.
   */
  #prune(now: number): void {
    if (this.#buckets.size <= this.#maxKeys) return;
    const target = Math.floor(this.#maxKeys * 0.9);
    const byTokens = [...this.#buckets.keys()]
      .map((key, order) => ({ key, order, tokens: this.#refilled(key, now).tokens }))
      .sort((a, b) => b.tokens - a.tokens || a.order - b.order);
    for (const { key } of byTokens) {
      if (this.#buckets.size <= target) break;
      this.#buckets.delete(key);
    }
  }
}
