import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * A @fastify/rate-limit store in the database (the `rate_limit_bucket` table), so a fixed-window
 * counter (sign-in attempts, locale reports) is one counter for every instance on the same database.
 * One upsert counts the attempt and starts a new window when the old one has ended; windows that
 * have ended are removed by the token-bucket limiter's purge (their `full_at_ms` is in the past).
 */
export function sharedRateLimitStore(db: Kysely<Database>, opts: { now?: () => number } = {}): FastifyRateLimitStoreCtor {
  const clock = opts.now ?? (() => Date.now());
  function make(namespace: string): FastifyRateLimitStore {
    return {
      incr(key, callback, timeWindow) {
        const now = Math.floor(clock());
        const k = `window:${namespace}${key}`;
        const window = Math.max(1, Math.floor(timeWindow));
        const nowMs = sql`${now}::bigint`;
        const ends = sql`${now + window}::bigint`;
        sql<{ tokens: number; full_at_ms: number }>`
          insert into rate_limit_bucket as b (key, tokens, updated_at_ms, full_at_ms)
          values (${k}, 1, ${nowMs}, ${ends})
          on conflict (key) do update set
            tokens = case when b.full_at_ms <= ${nowMs} then 1 else b.tokens + 1 end,
            updated_at_ms = ${nowMs},
            full_at_ms = case when b.full_at_ms <= ${nowMs} then ${ends} else b.full_at_ms end
          returning tokens, full_at_ms`
          .execute(db)
          .then(
            (r) => {
              const row = r.rows[0]!;
              callback(null, { current: Number(row.tokens), ttl: Math.max(0, Number(row.full_at_ms) - now) });
            },
            (err: Error) => callback(err),
          );
      },
      child(routeOptions) {
        // The plugin passes the route (method, url) for route limits, an empty one for createRateLimit().
        const info = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
        const route = info?.url ? `${String(info.method)} ${String(info.url)}:` : '';
        return make(`${namespace}${route}`);
      },
    };
  }
  return class {
    constructor() {
      return make('');
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
