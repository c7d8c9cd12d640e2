import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import type { z } from 'zod';
import {
  auditStreamsStatusSchema,
  reportBypassCodesPageSchema,
  reportCoverageQuerySchema,
  reportCoverageResponseSchema,
  reportCsvQuerySchema,
  reportListQuerySchema,
  reportLockedPageSchema,
  reportStaleDevicesPageSchema,
  reportWithoutFactorPageSchema,
  type AuditStreamsStatus,
  type ReportListName,
} from '@mfa-portal/shared';
import { ADMIN_ERRORS, ADMIN_TAGS, SECURITY } from '../../common/route-schemas.js';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import { unitIdsOf } from '../common/admin-scope.js';
import type { ReportsService } from './reports.service.js';

const LISTS: Record<ReportListName, { summary: string; schema: z.ZodTypeAny; file: string }> = {
  'without-factor': {
    summary: 'Staff without any device (a page, by sign-in name)',
    schema: reportWithoutFactorPageSchema,
    file: 'staff-without-factor',
  },
  locked: {
    summary: 'Locked out or disabled accounts (a page, by sign-in name)',
    schema: reportLockedPageSchema,
    file: 'locked-or-disabled',
  },
  'stale-devices': {
    summary: 'Devices not used for `days` days (default 90; never used: added before then), longest unused first',
    schema: reportStaleDevicesPageSchema,
    file: 'stale-devices',
  },
  'bypass-codes': {
    summary: 'Bypass codes in force (metadata only, never a code), soonest to expire first',
    schema: reportBypassCodesPageSchema,
    file: 'bypass-codes-in-force',
  },
};

/**
 * Reports under `<basePath>api/admin/reports` (Solution Administrators: organisation-wide figures that
 * include protected accounts, like the audit log). Each list as JSON pages and as a streamed CSV, and
 * how the audit trail reaches the SIEM (`audit-streams`: no secret, the destination's host only).
 * A report the MFA provider cannot give answers 409 `mfa.not_supported_by_provider` naming it.
 * A Helpdesk Administrator limited to administrative units reads the reports of their units' people
 * (figures counted live, no organisation history), never the organisation's or the SIEM's.
 */
export async function reportsRoutes(
  app: FastifyInstance,
  opts: AdminRoutesOptions & {
    service: ReportsService;
    /** The reports of the people of some administrative units. */
    forUnits: (unitIds: readonly string[]) => ReportsService;
    auditStreams: { status(): Promise<AuditStreamsStatus> };
  },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { global, scopeOf } = installAdminHooks(app, opts);
  const preValidation = global('admin.reports.read');
  /** The organisation's reports, or those of the caller's units. */
  const serviceOf = (request: FastifyRequest) => {
    const units = unitIdsOf(scopeOf(request));
    return units ? opts.forUnits(units) : opts.service;
  };

  r.get(
    '/reports/coverage',
    {
      preValidation,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Enrolment coverage now and by day (from daily snapshots), and which reports the MFA provider allows',
        querystring: reportCoverageQuerySchema,
        response: { 200: reportCoverageResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => serviceOf(request).coverage(request.query),
  );

  r.get(
    '/reports/audit-streams',
    {
      // The audit trail's delivery: for those who read the audit log, never a helpdesk member's units.
      preValidation: global('admin.audit.read'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary:
          'Audit to a SIEM: for each stream (syslog over TLS, signed webhook), whether it is switched on, its backlog, last delivery, last error and next attempt',
        response: { 200: auditStreamsStatusSchema, ...ADMIN_ERRORS },
      },
    },
    async () => opts.auditStreams.status(),
  );

  for (const [name, list] of Object.entries(LISTS) as [ReportListName, (typeof LISTS)[ReportListName]][]) {
    r.get(
      `/reports/${name}`,
      {
        preValidation,
        schema: {
          tags: ADMIN_TAGS,
          security: SECURITY,
          summary: list.summary,
          querystring: reportListQuerySchema,
          response: { 200: list.schema, ...ADMIN_ERRORS },
        },
      },
      async (request) => serviceOf(request).list(name, request.query) as never,
    );
    r.get(
      `/reports/${name}.csv`,
      {
        preValidation,
        schema: {
          tags: ADMIN_TAGS,
          security: SECURITY,
          summary: `${list.summary}, as CSV (every row, streamed)`,
          querystring: reportCsvQuerySchema,
          response: { ...ADMIN_ERRORS },
        },
      },
      async (request, reply) => {
        const service = serviceOf(request);
        service.assertAvailable(name);
        return (
          reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${list.file}.csv"`)
            .header('cache-control', 'no-store')
            // A stream, not one of the JSON bodies the schema types.
            .send(Readable.from(service.csv(name, request.query)) as never)
        );
      },
    );
  }
}
