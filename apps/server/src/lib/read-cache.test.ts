import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.js';

function cache(opts: { ttl?: number; max?: number } = {}) {
  let now = 1_000_000;
  const lookups: boolean[] = [];
  const c = new ReadCache<string>({
    name: 't',
    maxEntries: opts.max ?? 10,
    ttlMs: (v) => (v.startsWith('skip') ? 0 : (opts.ttl ?? 1000)),
    now: () => now,
    onLookup: (hit) => lookups.push(hit),
  });
  let loads = 0;
  const load = (value: string) => async () => {
    loads++;
    return value;
  };
  return { c, load, loads: () => loads, lookups, tick: (ms: number) => (now += ms) };
}

describe('ReadCache', () => {
  it('keeps nothing until it is live, then answers from memory until the value expires', async () => {
    const t = cache();
    expect(await t.c.get('a', t.load('v1'))).toBe('v1');
    expect(await t.c.get('a', t.load('v2'))).toBe('v2');
    expect(t.loads()).toBe(2);
    t.c.setLive(true);
    expect(await t.c.get('a', t.load('v3'))).toBe('v3');
    expect(await t.c.get('a', t.load('v4'))).toBe('v3');
    expect(t.loads()).toBe(3);
    t.tick(999);
    expect(await t.c.get('a', t.load('v5'))).toBe('v3');
    t.tick(1);
    expect(await t.c.get('a', t.load('v6'))).toBe('v6');
    expect(t.lookups).toEqual([false, false, false, true, true, false]);
  });

  it('does not keep a value whose time to live is zero', async () => {
    const t = cache();
    t.c.setLive(true);
    await t.c.get('a', t.load('skip-1'));
    expect(await t.c.get('a', t.load('skip-2'))).toBe('skip-2');
  });

  it('drops the invalidated keys only, and everything on clear or when it stops being live', async () => {
    const t = cache();
    t.c.setLive(true);
    await t.c.get('a', t.load('a1'));
    await t.c.get('b', t.load('b1'));
    t.c.invalidate(['a', 'zzz']);
    expect(await t.c.get('a', t.load('a2'))).toBe('a2');
    expect(await t.c.get('b', t.load('b2'))).toBe('b1');
    t.c.clear();
    expect(await t.c.get('b', t.load('b3'))).toBe('b3');
    t.c.setLive(false);
    expect(t.c.size).toBe(0);
    expect(await t.c.get('b', t.load('b4'))).toBe('b4');
  });

  it('answers but does not keep a read that an invalidation overtook', async () => {
    const t = cache();
    t.c.setLive(true);
    let release!: () => void;
    const slow = t.c.get('a', () => new Promise<string>((r) => (release = () => r('stale'))));
    t.c.invalidate(['a']);
    release();
    expect(await slow).toBe('stale');
    expect(await t.c.get('a', t.load('fresh'))).toBe('fresh');
    expect(await t.c.get('a', t.load('later'))).toBe('fresh');
  });

  it('holds at most maxEntries values, the oldest going first', async () => {
    const t = cache({ max: 2 });
    t.c.setLive(true);
    await t.c.get('a', t.load('a1'));
    await t.c.get('b', t.load('b1'));
    await t.c.get('c', t.load('c1'));
    expect(t.c.size).toBe(2);
    expect(await t.c.get('a', t.load('a2'))).toBe('a2');
    expect(await t.c.get('c', t.load('c2'))).toBe('c1');
  });
});
