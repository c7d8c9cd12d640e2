import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { periodicJob } from './periodic-job.js';

/** The background jobs' timer: runs in order, never overlapping, a failure reported and tried again, stop waits. */

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A job whose runs end when the test says, recording when each started and ended. */
function controlled() {
  const log: string[] = [];
  const ends: Array<(fail?: Error) => void> = [];
  let n = 0;
  const run = () =>
    new Promise<number>((resolve, reject) => {
      const k = ++n;
      log.push(`start ${k}`);
      ends.push((fail) => {
        log.push(`end ${k}`);
        if (fail) reject(fail);
        else resolve(k);
      });
    });
  return { log, ends, run };
}

describe('periodicJob', () => {
  it('runs after the first delay, then every interval after the last run ended, and never two at once', async () => {
    const c = controlled();
    const job = periodicJob({ everyMs: 1000, firstDelayMs: 50, run: c.run, onError: () => undefined });
    job.start();
    job.start(); // a second start does nothing
    await vi.advanceTimersByTimeAsync(49);
    expect(c.log).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(c.log).toEqual(['start 1']);
    // A long run: no other starts meanwhile, and a direct run waits for it.
    await vi.advanceTimersByTimeAsync(5000);
    const direct = job.runOnce();
    await vi.advanceTimersByTimeAsync(0);
    expect(c.log).toEqual(['start 1']);
    c.ends[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(c.log).toEqual(['start 1', 'end 1', 'start 2']);
    c.ends[1]!();
    expect(await direct).toBe(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(c.log).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(c.log.at(-1)).toBe('start 3');
    c.ends[2]!();
    await job.stop();
  });

  it('reports a failed run and tries again at the next interval', async () => {
    const c = controlled();
    const errors: unknown[] = [];
    const job = periodicJob({ everyMs: 100, run: c.run, onError: (err) => errors.push(err) });
    job.start();
    await vi.advanceTimersByTimeAsync(100);
    c.ends[0]!(new Error('smtp down'));
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toEqual([new Error('smtp down')]);
    await vi.advanceTimersByTimeAsync(100);
    expect(c.log.at(-1)).toBe('start 2');
    c.ends[1]!();
    await job.stop();
  });

  it('runs at once when nudged, or once more right after the run under way', async () => {
    const c = controlled();
    const job = periodicJob({ everyMs: 60_000, run: c.run, onError: () => undefined });
    job.nudge(); // not started: nothing
    await vi.advanceTimersByTimeAsync(0);
    expect(c.log).toEqual([]);
    job.start();
    job.nudge();
    await vi.advanceTimersByTimeAsync(0);
    expect(c.log).toEqual(['start 1']);
    job.nudge();
    job.nudge(); // twice during a run: one run more
    c.ends[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(c.log).toEqual(['start 1', 'end 1', 'start 2']);
    c.ends[1]!();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(c.log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    await job.stop();
  });

  it('stops the timer and waits for the run under way; none starts after', async () => {
    const c = controlled();
    const job = periodicJob({ everyMs: 100, run: c.run, onError: () => undefined });
    job.start();
    await vi.advanceTimersByTimeAsync(100);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    c.ends[0]!();
    await stopping;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(c.log).toEqual(['start 1', 'end 1']);
  });
});
