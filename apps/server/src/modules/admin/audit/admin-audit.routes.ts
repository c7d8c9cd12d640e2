import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import {
  adminAuditQuerySchema,
  adminAuditResponseSchema,
  adminAuditVerificationParamsSchema,
  adminAuditVerificationSchema,
  adminAuditVerificationStartSchema,
  adminAuditVerifyQuerySchema,
  adminAuditVerifyResponseSchema,
} from '@mfa-portal/shared';
import { ADMIN_ERRORS, ADMIN_TAGS, SECURITY } from '../../common/route-schemas.js';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import type { AdminAuditService } from './admin-audit.service.js';

/**
 * The audit log under `<basePath>api/admin/audit` (Solution Administrators): pages, CSV export, chain check.
 * Every route: bearer token, then the policy decision (a denial is audited), then validation and the service.
 */
export async function adminAuditRoutes(app: FastifyInstance, opts: AdminRoutesOptions & { service: AdminAuditService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auditLog = opts.service;
  const { global } = installAdminHooks(app, opts);

  r.get(
    '/audit',
    {
      preValidation: global('admin.audit.read'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'The audit log, filtered, newest first',
        querystring: adminAuditQuerySchema,
        response: { 200: adminAuditResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => auditLog.auditLog(request.query),
  );

  r.get(
    '/audit.csv',
    {
      preValidation: global('admin.audit.read'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'The filtered audit log as CSV, streamed: every matching row (X-Export-Row-Limit names a configured cap)',
        querystring: adminAuditQuerySchema,
        response: { ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      if (auditLog.csvMaxRows > 0) reply.header('x-export-row-limit', String(auditLog.csvMaxRows));
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="audit-log.csv"')
          .header('cache-control', 'no-store')
          // A stream, not one of the JSON bodies the schema types.
          .send(Readable.from(auditLog.auditCsv(request.query)) as never)
      );
    },
  );

  r.get(
    '/audit/verify',
    {
      preValidation: global('admin.audit.read'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Verify the hash chain of the audit log and wait for the verdict; reports the first broken link',
        querystring: adminAuditVerifyQuerySchema,
        response: { 200: adminAuditVerifyResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => auditLog.auditVerify(request.caller.upn, request.query.mode),
  );

  r.post(
    '/audit/verifications',
    {
      preValidation: global('admin.audit.read'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Start verifying the hash chain (full, or incremental from the last checkpoint); poll the run for progress',
        body: adminAuditVerificationStartSchema,
        response: { 202: adminAuditVerificationSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => reply.code(202).send(await auditLog.startAuditVerification(request.caller.upn, request.body.mode)),
  );

  r.get(
    '/audit/verifications/:id',
    {
      preValidation: global('admin.audit.read'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'A verification run of the hash chain: progress, then the verdict',
        params: adminAuditVerificationParamsSchema,
        response: { 200: adminAuditVerificationSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await auditLog.auditVerification(request.params.id)),
  );
}
