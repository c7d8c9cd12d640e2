/**
 * A background job run on this instance's timer: the e-mail outbox, the SIEM streams, the enrolment
 * campaigns, the report snapshots, the directory sync. What they share, and had each written again:
 *
 * - runs never overlap: a run asked for during another waits for it (`runOnce` from a test or an
 *   administrator's action included);
 * - the next run is `everyMs` after the last one ended;
 * - the timer never keeps the process alive;
 * - a failed run goes to `onError` and the next one tries again;
 * - `nudge()` runs it now, or once more as soon as the run under way ends;
 * - `stop()` waits for the run under way, so that nothing is left writing when the database closes.
 */
export interface PeriodicJob<T> {
  /** One run, after any under way; resolves with its result (rejects with its error). */
  runOnce(): Promise<T>;
  /** Starts the timer: the first run after `firstDelayMs` (default `everyMs`). Starting twice does nothing. */
  start(): void;
  /** Stops the timer and waits for the runs under way. */
  stop(): Promise<void>;
  /** A run now (while started), or right after the one under way. */
  nudge(): void;
}

export function periodicJob<T>(opts: {
  everyMs: number;
  firstDelayMs?: number;
  run: () => Promise<T>;
  onError: (err: unknown) => void;
}): PeriodicJob<T> {
  let stopped = true;
  let timer: NodeJS.Timeout | null = null;
  let again = false;
  let ticking = false;
  // Every run, in order: a run asked for while another is under way starts when it ends.
  let queue: Promise<unknown> = Promise.resolve();

  function runOnce(): Promise<T> {
    const run = queue.then(opts.run);
    queue = run.catch(() => undefined);
    return run;
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    timer = setTimeout(tick, delayMs);
    timer.unref();
  }

  function tick() {
    timer = null;
    ticking = true;
    runOnce()
      .then(
        () => undefined,
        (err: unknown) => opts.onError(err),
      )
      .finally(() => {
        ticking = false;
        if (again && !stopped) {
          again = false;
          tick();
          return;
        }
        schedule(opts.everyMs);
      });
  }

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(opts.firstDelayMs ?? opts.everyMs);
    },
    async stop() {
      stopped = true;
      again = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await queue;
    },
    nudge() {
      if (stopped) return;
      if (ticking) {
        again = true;
        return;
      }
      if (timer) clearTimeout(timer);
      tick();
    },
  };
}
