import { periodicJob } from '../../../lib/periodic-job.js';
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
  firstDelayMs?: number;
  onError?: (err: unknown) => void;
}) {
  return periodicJob({
    everyMs: (deps.everyMinutes ?? REPORT_SNAPSHOT_EVERY_MINUTES) * 60_000,
    // Soon after the start, so that a day the portal ran briefly still has its point.
    firstDelayMs: deps.firstDelayMs ?? 10_000,
    run: () => deps.reports.takeSnapshot(),
    onError: (err) => deps.onError?.(err),
  });
}
