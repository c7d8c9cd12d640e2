import type { AdminAuditQuery, AdminAuditResponse, AdminAuditVerification, AdminAuditVerifyResponse } from '@mfa-portal/shared';
import { toActivityEvent } from '../../audit/activity-event.js';
import type { ChainVerificationMode } from '../../audit/chain-verification.js';
import type { ChainVerificationRun, ChainVerificationService } from '../../audit/chain-verification.service.js';
import type { AuditFilter, AuditService } from '../../audit/audit.service.js';
import { AppError } from '../../../lib/errors.js';
import { auditCsvHeader, auditCsvRow, csvCell } from './audit-csv.js';

/**
 * The audit log for Solution Administrators (`/api/admin/audit`): filtered pages, the streamed CSV
 * export (every matching row unless AUDIT_CSV_MAX_ROWS caps it), and verification runs of the chain.
 */

function filterOf(q: AdminAuditQuery): AuditFilter {
  return {
    ...(q.actor ? { actorLike: q.actor } : {}),
    ...(q.target ? { targetLike: q.target } : {}),
    ...(q.action ? { action: q.action } : {}),
    ...(q.outcome ? { outcome: q.outcome } : {}),
    ...(q.from ? { from: new Date(q.from) } : {}),
    ...(q.to ? { to: new Date(q.to) } : {}),
  };
}

export function createAdminAuditService(deps: { audit: AuditService; auditVerification: ChainVerificationService; csvMaxRows?: number }) {
  const { audit } = deps;
  return {
    /** The configured cap of the audit CSV export (0: none). */
    csvMaxRows: deps.csvMaxRows ?? 0,

    async auditLog(query: AdminAuditQuery): Promise<AdminAuditResponse> {
      const page = await audit.search(filterOf(query), { cursor: query.cursor, limit: query.limit });
      return { events: page.events.map(toActivityEvent), nextCursor: page.nextCursor };
    },

    /**
     * The filtered log as CSV, newest first, streamed a page at a time (constant memory): the header
     * row goes out before the first query. Every matching row, unless `csvMaxRows` (configuration)
     * caps it: the response then says so in a header, and a last line says the file was cut.
     */
    async *auditCsv(query: AdminAuditQuery): AsyncGenerator<string> {
      yield `${auditCsvHeader()}\r\n`;
      const max = deps.csvMaxRows ?? 0;
      const cut = `${csvCell(`# cut at ${max} rows (AUDIT_CSV_MAX_ROWS): narrow the filters to export the rest`)}\r\n`;
      let written = 0;
      for await (const page of audit.stream(filterOf(query), { pageSize: 1000 })) {
        if (max > 0 && written >= max) {
          yield cut;
          return;
        }
        const rows = max > 0 ? page.slice(0, max - written) : page;
        yield `${rows.map(auditCsvRow).join('\r\n')}\r\n`;
        written += rows.length;
        if (rows.length < page.length) {
          yield cut;
          return;
        }
      }
    },

    /** Starts a verification run of the hash chain (or joins the one going on); poll it with {@link auditVerification}. */
    async startAuditVerification(startedBy: string, mode: ChainVerificationMode): Promise<AdminAuditVerification> {
      return toVerificationResponse(await deps.auditVerification.start({ mode, startedBy }));
    },

    async auditVerification(id: string): Promise<AdminAuditVerification> {
      const run = await deps.auditVerification.get(id);
      if (!run) throw new AppError({ code: 'audit.verification_not_found' });
      return toVerificationResponse(run);
    },

    /** The verdict of a whole run, waited for (the API's synchronous form; the screen polls instead). */
    async auditVerify(startedBy: string, mode: ChainVerificationMode = 'full'): Promise<AdminAuditVerifyResponse> {
      let run = await deps.auditVerification.start({ mode, startedBy });
      await deps.auditVerification.settled(run.id);
      // A run of another instance: poll it until it ends.
      while (run.state === 'running') {
        run = (await deps.auditVerification.get(run.id)) ?? run;
        if (run.state === 'running') await new Promise((r) => setTimeout(r, 200));
      }
      const result = toVerificationResponse(run).result;
      if (!result) throw new Error(`audit verification ${run.id} ended without a verdict`);
      return result;
    },
  };
}

function toVerificationResponse(run: ChainVerificationRun): AdminAuditVerification {
  const r = run.result;
  const result: AdminAuditVerifyResponse | null =
    !r || 'error' in r ? null : r.ok ? { ok: true, count: r.count } : { ok: false, brokenAt: r.brokenAt, id: r.id, reason: r.reason };
  return {
    id: run.id,
    mode: run.mode,
    state: run.state,
    checked: run.checked,
    total: run.total,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    result,
  };
}

export type AdminAuditService = ReturnType<typeof createAdminAuditService>;
