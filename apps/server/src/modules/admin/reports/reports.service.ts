import {
  REPORT_HISTORY_DEFAULT_DAYS,
  STALE_DEVICE_DAYS,
  type CoverageFigures,
  type ReportAvailability,
  type ReportCoverageQuery,
  type ReportCoverageResponse,
  type ReportListName,
  type ReportPage,
  type ReportTotals,
} from '@mfa-portal/shared';
import { AppError } from '../../../lib/errors.js';
import { csvCell } from '../audit/audit-csv.js';
import type { ReportsRepository, SnapshotRow, TimeCursor } from './reports.repository.js';

/**
 * The administrators' reports. Coverage over time comes from daily snapshots (one row a
 * day, written by the snapshot job and on the first read of a day without one); the lists are read
 * live, a keyset page at a time, and streamed as CSV the same way. Today's figures and the lists'
 * totals are of one moment: counted together now where that is cheap, else the snapshot's alone.
 *
 * With the builtin provider every report reads the portal's database. With Duo the portal holds only
 * its directory mirror (names and Duo's status, no devices or codes): the staff count and the locked
 * or disabled accounts are available; the others answer `mfa.not_supported_by_provider` and say so.
 */

const DAY_MS = 86_400_000;
const CSV_PAGE = 1000;
/** The page size of the lists when the query does not say. */
export const REPORT_PAGE_SIZE = 50;

export const dayOf = (d: Date): string => d.toISOString().slice(0, 10);

function availabilityOf(provider: string): ReportAvailability {
  const builtin = provider === 'builtin';
  return { coverage: builtin, 'without-factor': builtin, locked: true, 'stale-devices': builtin, 'bypass-codes': builtin };
}

const encodeTime = (p: TimeCursor) => Buffer.from(`${p.at.toISOString()}|${p.id}`).toString('base64url');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function decodeTime(cursor: string | undefined): TimeCursor | null {
  if (!cursor) return null;
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const time = at ? Date.parse(at) : NaN;
  if (rest.length > 0 || !id || !UUID.test(id) || Number.isNaN(time)) throw badCursor();
  return { at: new Date(time), id };
}
const badCursor = () =>
  new AppError({ code: 'request.invalid', details: { field: 'cursor', reason: 'must be the nextCursor of a previous page' } });
/** A sign-in name as the cursor (lists by name). */
function decodeName(cursor: string | undefined): string | null {
  if (!cursor) return null;
  if (cursor.length > 254 || [...cursor].some((c) => c.charCodeAt(0) < 0x20)) throw badCursor();
  return cursor;
}

/** CSV columns of each list, in order (metadata only: a bypass code itself is never stored, so never exported). */
export const REPORT_CSV_COLUMNS: Record<ReportListName, readonly string[]> = {
  'without-factor': ['upn', 'displayName', 'provisioned', 'status', 'lastSeenAt'],
  locked: ['upn', 'displayName', 'status', 'reason', 'lockedUntil', 'since'],
  'stale-devices': ['upn', 'displayName', 'deviceId', 'kind', 'name', 'createdAt', 'lastUsedAt'],
  'bypass-codes': ['upn', 'displayName', 'id', 'createdBy', 'createdAt', 'expiresAt', 'usesLeft'],
};

/** Coverage figures, where the provider can give them (Duo's directory mirror knows only the staff). */
function coverageOf(f: Pick<SnapshotRow, 'staff' | 'covered' | 'byKind'>): CoverageFigures | null {
  return f.covered !== null && f.byKind ? { staff: f.staff, covered: f.covered, byKind: f.byKind as CoverageFigures['byKind'] } : null;
}

const csvLine = (cells: readonly unknown[]) => cells.map((c) => csvCell(c === null || c === undefined ? null : String(c))).join(',');

/**
 * The largest organisation whose figures are counted on each view of the reports (about 30 ms at
 * this size; 300 ms at 100,000 staff, where the hourly snapshot is shown instead).
 */
export const REPORT_LIVE_MAX_STAFF = 10_000;

export function createReportsService(deps: { repo: ReportsRepository; provider: string; now?: () => Date; liveMaxStaff?: number }) {
  const { repo, provider } = deps;
  const liveMaxStaff = deps.liveMaxStaff ?? REPORT_LIVE_MAX_STAFF;
  const clock = deps.now ?? (() => new Date());
  const available = availabilityOf(provider);
  const builtin = provider === 'builtin';

  const notAvailable = (report: string) =>
    new AppError({
      code: 'mfa.not_supported_by_provider',
      details: { report, provider, reason: 'The portal does not hold the devices and codes of this MFA provider: see its own reports.' },
    });
  const assertAvailable = (report: ReportListName) => {
    if (!available[report]) throw notAvailable(report);
  };

  /**
   * The figures and the lists' totals now, in one statement, when that is cheap: always with Duo (the
   * directory mirror's counts), with the builtin store up to `liveMaxStaff` staff. Null: too large,
   * the hourly snapshot stands for now. Figures scoped to a part of the organisation would be counted
   * here too, live, as a part is small.
   */
  async function liveFigures(now: Date): Promise<{ figures: Awaited<ReturnType<typeof figures>>; totals: ReportTotals } | null> {
    if (!builtin) {
      const d = await repo.directoryFigures();
      return {
        figures: { staff: d.staff, covered: null, byKind: null },
        totals: { 'without-factor': null, locked: d.locked, 'stale-devices': null, 'bypass-codes': null, bypassCodeHolders: null },
      };
    }
    if ((await repo.staffCount()) > liveMaxStaff) return null;
    const { totals, ...f } = await repo.builtinFiguresWithTotals(now, new Date(now.getTime() - STALE_DEVICE_DAYS * DAY_MS));
    return { figures: f, totals };
  }

  /** The figures now, from the store (builtin) or the directory (others: staff only). */
  async function figures(now: Date): Promise<{ staff: number; covered: number | null; byKind: CoverageFigures['byKind'] | null }> {
    if (builtin) return repo.builtinFigures(now);
    return { staff: await repo.staffCount(), covered: null, byKind: null };
  }

  /** One page of a list: the rows and the cursor of the next page (null: the last). */
  async function listPage(
    name: ReportListName,
    q: { cursor?: string; limit: number; days?: number },
    now: Date,
  ): Promise<ReportPage<unknown>> {
    assertAvailable(name);
    const take = q.limit + 1;
    const pageOf = <T>(rows: T[], next: (last: T) => string): ReportPage<T> => {
      const more = rows.length > q.limit;
      const page = more ? rows.slice(0, q.limit) : rows;
      return { rows: page, nextCursor: more ? next(page[page.length - 1]!) : null };
    };
    switch (name) {
      case 'without-factor':
        return pageOf(await repo.withoutFactor(decodeName(q.cursor), take), (r) => r.upn);
      case 'locked': {
        const after = decodeName(q.cursor);
        const rows = builtin ? await repo.lockedBuiltin(after, take, now) : await repo.lockedFromDirectory(after, take);
        return pageOf(rows, (r) => r.upn);
      }
      case 'stale-devices': {
        const before = new Date(now.getTime() - (q.days ?? STALE_DEVICE_DAYS) * DAY_MS);
        const page = pageOf(await repo.staleDevices(before, decodeTime(q.cursor), take), (r) => encodeTime(r.position));
        return { ...page, rows: page.rows.map(({ position: _p, ...r }) => r) };
      }
      case 'bypass-codes': {
        const page = pageOf(await repo.bypassCodesInForce(now, decodeTime(q.cursor), take), (r) => encodeTime(r.position));
        return { ...page, rows: page.rows.map(({ position: _p, ...r }) => r) };
      }
    }
  }

  const service = {
    provider,
    available,

    /** Writes (or rewrites) today's snapshot of the figures. */
    async takeSnapshot(now: Date = clock()): Promise<void> {
      const f = await figures(now);
      await repo.saveSnapshot({ day: dayOf(now), provider, staff: f.staff, covered: f.covered, byKind: f.byKind, takenAt: now });
    },

    /**
     * Today's figures and the lists' totals, all of one moment, and the daily history of the range.
     * Counted now when that is cheap (then also today's point of the history); otherwise today's
     * snapshot, taken now if the day has none, and no totals (the lists are read now, the snapshot is
     * of another moment).
     */
    async coverage(q: ReportCoverageQuery): Promise<ReportCoverageResponse> {
      const now = clock();
      const today = dayOf(now);
      const to = q.to ?? today;
      const from = q.from ?? dayOf(new Date(Date.parse(to) - (REPORT_HISTORY_DEFAULT_DAYS - 1) * DAY_MS));
      const live = await liveFigures(now);
      let [latest] = await repo.snapshots(today, today);
      if (!latest) {
        if (live) await repo.saveSnapshot({ day: today, provider, ...live.figures, takenAt: now });
        else await service.takeSnapshot(now);
        [latest] = await repo.snapshots(today, today);
      }
      let history = (await repo.snapshots(from, to)).flatMap((h) => {
        const f = coverageOf(h);
        return f ? [{ day: h.day, ...f }] : [];
      });
      const current = live ? coverageOf(live.figures) : latest ? coverageOf(latest) : null;
      // Today's point of the chart is the figures shown above it, not the last hourly snapshot's.
      if (live && current && today >= from && today <= to)
        history = [...history.filter((h) => h.day !== today), { day: today, ...current }];
      return {
        provider,
        available,
        current,
        takenAt: live ? now.toISOString() : latest ? latest.takenAt.toISOString() : null,
        source: live ? 'live' : 'snapshot',
        totals: live ? live.totals : null,
        from,
        to,
        history,
        historySince: await repo.firstSnapshotDay(),
      };
    },

    list: (name: ReportListName, q: { cursor?: string; limit: number; days?: number }) => listPage(name, q, clock()),

    /** Throws before the response starts when the list is not available (the CSV's status is then the error's). */
    assertAvailable,

    /** The whole list as CSV, a page at a time (constant memory); the header row goes out first. */
    async *csv(name: ReportListName, q: { days?: number }): AsyncGenerator<string> {
      assertAvailable(name);
      const now = clock();
      const columns = REPORT_CSV_COLUMNS[name];
      yield `${csvLine(columns)}\r\n`;
      let cursor: string | undefined;
      do {
        const page = await listPage(name, { ...q, limit: CSV_PAGE, ...(cursor ? { cursor } : {}) }, now);
        if (page.rows.length > 0) {
          yield `${page.rows.map((r) => csvLine(columns.map((c) => (r as Record<string, unknown>)[c]))).join('\r\n')}\r\n`;
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    },
  };
  return service;
}

export type ReportsService = ReturnType<typeof createReportsService>;
