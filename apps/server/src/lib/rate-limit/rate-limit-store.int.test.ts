import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { createTestDatabase } from '../../../test/database.js';
import { createDbRateLimiter, createMemoryRateLimiter, type AsyncRateLimiter } from './rate-limit-store.js';

/**
 * The database-backed limiter (shared by every instance) follows the same token-bucket rule as the
 * in-memory one, atomically: it is checked here side by side with the memory limiter, and with two
 * limiters on the same database standing for two server instances.
 */
let h: DatabaseHandle;
beforeAll(async () => {
  h = await createTestDatabase();
});
afterAll(async () => h?.close());
beforeEach(async () => {
  await h.db.deleteFrom('rate_limit_bucket').execute();
});

function clock(start = 1_700_000_000_000) {
  const c = { now: start };
  return c;
}

const drain = async (l: AsyncRateLimiter, key: string, n: number) => {
  const out: boolean[] = [];
  for (let i = 0; i < n; i++) out.push((await l.consume(key)).allowed);
  return out;
};

describe('database rate limiter', () => {
  it('allows `limit` attempts, then refuses with the seconds until the next token, like the memory limiter', async () => {
    const c = clock();
    const db = createDbRateLimiter(h.db, { name: 't', limit: 3, intervalSeconds: 60, now: () => c.now });
    const mem = createMemoryRateLimiter({ limit: 3, intervalSeconds: 60, now: () => c.now });
    expect(await drain(db, 'user:a', 4)).toEqual([true, true, true, false]);
    expect(await drain(mem, 'user:a', 4)).toEqual([true, true, true, false]);
    const refused = await db.consume('user:a');
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 20 });
    expect(refused).toEqual(await mem.consume('user:a'));
  });

  it('gives tokens back over time, never more than the limit, and a refusal takes nothing', async () => {
    const c = clock();
    const db = createDbRateLimiter(h.db, { name: 't', limit: 2, intervalSeconds: 10, now: () => c.now });
    expect(await drain(db, 'k', 3)).toEqual([true, true, false]);
    c.now += 4_000; // 0.8 token
    expect((await db.consume('k')).allowed).toBe(false);
    c.now += 1_000; // 1 token (the refusal above took nothing)
    expect((await db.consume('k')).allowed).toBe(true);
    c.now += 3_600_000; // long idle: full again, but only 2
    expect(await drain(db, 'k', 3)).toEqual([true, true, false]);
  });

  it('refills nothing when the clock goes backwards', async () => {
    const c = clock();
    const db = createDbRateLimiter(h.db, { name: 't', limit: 1, intervalSeconds: 60, now: () => c.now });
    expect((await db.consume('k')).allowed).toBe(true);
    c.now -= 600_000;
    expect((await db.consume('k')).allowed).toBe(false);
  });

  it('keeps keys and limiter names apart', async () => {
    const c = clock();
    const a = createDbRateLimiter(h.db, { name: 'a', limit: 1, intervalSeconds: 60, now: () => c.now });
    const b = createDbRateLimiter(h.db, { name: 'b', limit: 1, intervalSeconds: 60, now: () => c.now });
    expect((await a.consume('k')).allowed).toBe(true);
    expect((await a.consume('k')).allowed).toBe(false);
    expect((await a.consume('other')).allowed).toBe(true);
    expect((await b.consume('k')).allowed).toBe(true);
  });

  it('is one budget for two instances on the same database, even under concurrent attempts', async () => {
    const c = clock();
    const one = createDbRateLimiter(h.db, { name: 'v', limit: 5, intervalSeconds: 60, now: () => c.now });
    const two = createDbRateLimiter(h.db, { name: 'v', limit: 5, intervalSeconds: 60, now: () => c.now });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? one : two).consume('user:bob')));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect((await one.consume('user:bob')).allowed).toBe(false);
    expect((await two.consume('user:bob')).allowed).toBe(false);
  });

  it('purges buckets that have refilled completely, and only those', async () => {
    const c = clock();
    const db = createDbRateLimiter(h.db, { name: 'p', limit: 2, intervalSeconds: 10, now: () => c.now, purgeEveryMs: 1 });
    await db.consume('idle');
    await drain(db, 'busy', 2);
    c.now += 5_000; // idle is full again (one token back); busy has one of two
    await db.consume('third');
    const keys = (await h.db.selectFrom('rate_limit_bucket').select('key').orderBy('key').execute()).map((r) => r.key);
    expect(keys).toEqual(['p:busy', 'p:third']);
  });

  it('refuses bad options as the memory limiter does', () => {
    expect(() => createDbRateLimiter(h.db, { name: 'x', limit: 0, intervalSeconds: 60 })).toThrow(RangeError);
    expect(() => createDbRateLimiter(h.db, { name: 'x', limit: 1, intervalSeconds: 0 })).toThrow(RangeError);
  });
});
