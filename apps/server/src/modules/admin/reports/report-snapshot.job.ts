import type { ReportsService } from './reports.service.js';

/** How often the snapshot job rewrites today's enrolment figures. */
export const REPORT_SNAPSHOT_EVERY_MINUTES = 60;

/**
 * Writes today's enrolment figures (`report_snapshot`) soon after start and then every hour, so the
 * coverage chart has a point for every day the portal ran, whether or not anyone opened the reports.
 * Each run rewrites the day's row (an upsert on the day): several instances doing it agree.
 */
export function createReportSnapshotJob(deps: {
  reports: Pick<ReportsService, 'takeSnapshot'>;
  everyMinutes?: number;
  onError?: (err: unknown) => void;
}) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= deps.reports
      .takeSnapshot()
      .catch((err: unknown) => deps.onError?.(err))
      .finally(() => (running = null));
    return running;
  };
  return {
    run,
    start(firstDelayMs = 10_000) {
      if (timer) return;
      const every = (deps.everyMinutes ?? REPORT_SNAPSHOT_EVERY_MINUTES) * 60_000;
      timer = setTimeout(() => {
        void run();
        timer = setInterval(() => void run(), every).unref();
      }, firstDelayMs).unref();
    },
    /** Stops the timer and waits for a run under way (before the database closes). */
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
