/**
 * Retry timing of the Duo client: exponential backoff with full jitter, bounded twice — by a number of
 * attempts and by a total waiting time — so a request never hangs for long behind a rate limit.
 *
 * Retry n (1-based) waits a random time in [0, min(maxDelayMs, baseDelayMs · 2^(n-1))) ("full jitter":
 * concurrent portal instances spread out instead of retrying in lockstep). A `Retry-After` from Duo is a
 * floor: the wait is at least that long, and when that floor does not fit in the remaining budget the
 * client gives up at once rather than retry too early.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included (1 = never retry). */
  maxAttempts: number;
  /** Ceiling of the first retry's wait. */
  baseDelayMs: number;
  /** Ceiling of any single wait. */
  maxDelayMs: number;
  /** Total time spent waiting between attempts, at most. */
  maxTotalWaitMs: number;
  /** First wait after a 429 (Duo's clients: 1 s). */
  rateLimitBaseDelayMs: number;
  /** Longest scheduled wait after a 429 (Duo's clients: 32 s, doubling from the first). */
  rateLimitMaxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 4_000,
  maxTotalWaitMs: 8_000,
  rateLimitBaseDelayMs: 1_000,
  rateLimitMaxDelayMs: 32_000,
});

/**
 * The wait before retry `retry` (1-based) after a 429, as Duo's own clients wait (duo_client_python
 * `_make_request`, duo_api_nodejs, duo_api_golang `makeRetryableHttpCall`): 1 s, doubled each time up
 * to 32 s, plus up to 1 s at random so concurrent callers spread out.
 */
export function rateLimitScheduleMs(retry: number, policy: Pick<RetryPolicy, 'rateLimitBaseDelayMs' | 'rateLimitMaxDelayMs'>): number {
  return Math.min(policy.rateLimitMaxDelayMs, policy.rateLimitBaseDelayMs * 2 ** Math.max(0, retry - 1));
}

/** The full-jitter wait before retry `retry` (1-based), without a floor or a budget. */
export function jitteredDelayMs(retry: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const r = Math.min(Math.max(random(), 0), 1 - Number.EPSILON);
  return Math.floor(r * ceiling);
}

export type RetryDecision = { retry: true; waitMs: number } | { retry: false; reason: 'attempts' | 'budget' };

/**
 * Whether to try again after attempt `attempt` (1-based) failed, having already waited `waitedMs`,
 * and how long to wait first. `floorMs` is Duo's Retry-After, if any.
 */
export function nextRetry(
  input: { attempt: number; waitedMs: number; floorMs?: number | null; rateLimited?: boolean },
  policy: RetryPolicy,
  random: () => number,
): RetryDecision {
  if (input.attempt >= policy.maxAttempts) return { retry: false, reason: 'attempts' };
  const remaining = policy.maxTotalWaitMs - input.waitedMs;
  const floor = Math.max(0, input.floorMs ?? 0);
  if (remaining <= 0 || floor > remaining) return { retry: false, reason: 'budget' };
  if (input.rateLimited) {
    // Duo's schedule, or Duo's Retry-After when longer; given up when it no longer fits the budget
    // (retrying earlier than Duo asked would only be refused again).
    const scheduled = Math.max(floor, rateLimitScheduleMs(input.attempt, policy));
    if (scheduled > remaining) return { retry: false, reason: 'budget' };
    const r = Math.min(Math.max(random(), 0), 1 - Number.EPSILON);
    return { retry: true, waitMs: Math.min(scheduled + Math.floor(r * 1000), remaining) };
  }
  const wait = Math.max(floor, jitteredDelayMs(input.attempt, policy, random));
  return { retry: true, waitMs: Math.min(wait, remaining) };
}

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date), null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A sleep that ends early (rejecting) when `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
