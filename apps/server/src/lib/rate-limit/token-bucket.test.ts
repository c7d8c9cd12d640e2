import { describe, expect, it } from 'vitest';
import { RateLimiter } from './token-bucket.js';

describe('RateLimiter', () => {
  function limiter(limit = 3, intervalSeconds = 60, maxKeys?: number) {
    const clock = { now: 1_000_000 };
    return { clock, rl: new RateLimiter({ limit, intervalSeconds, now: () => clock.now, maxKeys }) };
  }

  it('allows a burst of `limit` attempts, then refuses with a retry delay', () => {
    const { rl } = limiter();
    expect([rl.consume('user:a'), rl.consume('user:a'), rl.consume('user:a')].every((d) => d.allowed)).toBe(true);
    // 3 per 60 s: one attempt comes back every 20 s.
    expect(rl.consume('user:a')).toEqual({ allowed: false, retryAfterSeconds: 20 });
  });

  it('refills over time, and waiting retryAfterSeconds is enough', () => {
    const { rl, clock } = limiter();
    for (let i = 0; i < 3; i += 1) rl.consume('k');
    clock.now += 5_000;
    const refused = rl.consume('k');
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 15 });
    clock.now += 14_000;
    expect(rl.consume('k').allowed).toBe(false);
    clock.now += 1_000;
    expect(rl.consume('k').allowed).toBe(true);
    expect(rl.consume('k').allowed).toBe(false);
  });

  it('never holds more than `limit` attempts however long it waits', () => {
    const { rl, clock } = limiter();
    clock.now += 3_600_000;
    const decisions = Array.from({ length: 4 }, () => rl.consume('k').allowed);
    expect(decisions).toEqual([true, true, true, false]);
  });

  it('keeps keys apart (per user and per address)', () => {
    const { rl } = limiter(1);
    expect(rl.consume('user:a').allowed).toBe(true);
    expect(rl.consume('user:a').allowed).toBe(false);
    expect(rl.consume('user:b').allowed).toBe(true);
    expect(rl.consume('addr:192.0.2.1').allowed).toBe(true);
  });

  it('does not let refused attempts push the delay further', () => {
    const { rl, clock } = limiter(1, 10);
    rl.consume('k');
    for (let i = 0; i < 20; i += 1) rl.consume('k');
    clock.now += 10_000;
    expect(rl.consume('k').allowed).toBe(true);
  });

  it('neither refills nor drains when the clock goes backwards', () => {
    const { rl, clock } = limiter(2, 10);
    rl.consume('k');
    clock.now -= 60_000;
    expect(rl.consume('k').allowed).toBe(true);
    expect(rl.consume('k').allowed).toBe(false);
  });

  it('reset forgets a key', () => {
    const { rl } = limiter(1);
    rl.consume('k');
    rl.reset('k');
    expect(rl.consume('k').allowed).toBe(true);
  });

  it('bounds its memory, dropping refilled keys first', () => {
    const { rl, clock } = limiter(2, 10, 3);
    rl.consume('busy');
    rl.consume('busy'); // empty bucket
    for (const key of ['a', 'b', 'c', 'd', 'e']) rl.consume(key);
    expect(rl.size).toBeLessThanOrEqual(3);
    clock.now += 100; // 'busy' is still nearly empty and must not have been dropped for a refilled key
    expect(rl.consume('busy').allowed).toBe(false);
  });

  it('refuses a nonsensical configuration', () => {
    expect(() => new RateLimiter({ limit: 0, intervalSeconds: 60 })).toThrow(RangeError);
    expect(() => new RateLimiter({ limit: 5, intervalSeconds: 0 })).toThrow(RangeError);
  });
});
