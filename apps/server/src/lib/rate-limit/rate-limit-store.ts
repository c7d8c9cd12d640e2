import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  RateLimiter,
  refilledTokens,
  secondsUntilToken,
  tokenBucket,
  type RateLimitDecision,
  type RateLimitOptions,
} from './token-bucket.js';

/**
 * A token-bucket rate limiter whose state may live outside the process. The in-memory one suits a
 * single instance and unit tests; the database one is shared by every instance on the same
 * database (PGlite or PostgreSQL), so adding instances does not multiply anyone's budget.
 *
 * Both follow the same rule (see {@link RateLimiter}): each attempt takes a token; tokens come back at
 * `limit / intervalSeconds` per second up to `limit`; a refused attempt takes nothing.
 */
export interface AsyncRateLimiter {
  consume(key: string): Promise<RateLimitDecision>;
}

export function createMemoryRateLimiter(options: RateLimitOptions): AsyncRateLimiter {
  const limiter = new RateLimiter(options);
  return { consume: async (key) => limiter.consume(key) };
}

export interface DbRateLimitOptions extends RateLimitOptions {
  /** Prefix that keeps this limiter's keys apart from other limiters' in the shared table. */
  name: string;
  /** How often (milliseconds) an instance deletes buckets that have refilled completely. */
  purgeEveryMs?: number;
}

/**
 * The bucket is read, refilled and taken from in one statement (an upsert whose update only happens
 * when a whole token is there), so two instances — or two requests — never spend the same token.
 */
export function createDbRateLimiter(db: Kysely<Database>, options: DbRateLimitOptions): AsyncRateLimiter {
  const { capacity, perMs } = tokenBucket(options);
  // Read at each call (not a captured Date.now), so a faked clock applies.
  const clock = options.now ?? (() => Date.now());
  const purgeEveryMs = options.purgeEveryMs ?? 60_000;
  let lastPurge = 0;

  async function purge(now: number): Promise<void> {
    if (now - lastPurge < purgeEveryMs) return;
    lastPurge = now;
    await db.deleteFrom('rate_limit_bucket').where('full_at_ms', '<=', now).execute();
  }

  return {
    async consume(key) {
      const now = Math.floor(clock());
      const k = `${options.name}:${key}`;
      const cap = sql`${capacity}::double precision`;
      const rate = sql`${perMs}::double precision`;
      const nowMs = sql`${now}::bigint`;
      // Tokens in the bucket now (a clock that goes backwards refills nothing).
      const refilled = sql`least(${cap}, b.tokens + greatest(0, ${nowMs} - b.updated_at_ms)::double precision * ${rate})`;
      const taken = await sql<{ tokens: number }>`
        insert into rate_limit_bucket as b (key, tokens, updated_at_ms, full_at_ms)
        values (${k}, ${cap} - 1, ${nowMs}, ${nowMs} + ceil(1 / ${rate})::bigint)
        on conflict (key) do update set
          tokens = ${refilled} - 1,
          updated_at_ms = greatest(${nowMs}, b.updated_at_ms),
          full_at_ms = greatest(${nowMs}, b.updated_at_ms) + ceil((${cap} - (${refilled} - 1)) / ${rate})::bigint
        where ${refilled} >= 1
        returning tokens`.execute(db);
      await purge(now);
      if (taken.rows.length > 0) return { allowed: true, retryAfterSeconds: 0 };

      const row = await db.selectFrom('rate_limit_bucket').select(['tokens', 'updated_at_ms']).where('key', '=', k).executeTakeFirst();
      const tokens = row ? refilledTokens(Number(row.tokens), now - Number(row.updated_at_ms), capacity, perMs) : capacity;
      return { allowed: false, retryAfterSeconds: secondsUntilToken(tokens, perMs) };
    },
  };
}
