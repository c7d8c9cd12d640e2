/**
 * Token-bucket arithmetic, once for the in-memory and the database limiters (rate-limit-store.ts):
 * each attempt takes a token; tokens come back at `limit / intervalSeconds` per second up to `limit`;
 * a refused attempt takes nothing.
 */

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
