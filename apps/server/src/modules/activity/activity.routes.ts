import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  activityQuerySchema,
  activityReportBodySchema,
  activityReportParamsSchema,
  activityReportResponseSchema,
  activityResponseSchema,
  errorBodySchema,
} from '@mfa-portal/shared';
import { contextOf } from '../common/request-context.js';
import { COMMON_ERRORS, ME_TAGS, SECURITY } from '../common/route-schemas.js';
import { installSelfServiceHooks, type SelfRoutesOptions } from '../common/self-routes.js';
import type { ActivityReportService } from './activity-report.service.js';
import type { ActivityService } from './activity.service.js';

/**
 * The caller's activity under `<basePath>api/me/activity`: audit events about their account, and
 * "This wasn't me" on one of them. Every route needs a bearer token and answers with `cache-control: no-store`.
 */
export async function activityRoutes(
  app: FastifyInstance,
  opts: SelfRoutesOptions & { service: ActivityService; reports: ActivityReportService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const activity = opts.service;
  installSelfServiceHooks(app, opts.verify);

  r.get(
    '/activity',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Audit events about my account, newest first',
        querystring: activityQuerySchema,
        response: { 200: activityResponseSchema, ...COMMON_ERRORS },
      },
    },
    async (request) => activity.activity(contextOf(request), request.query),
  );

  r.post(
    '/activity/:id/report',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary:
          "This wasn't me: report an event, tell the security contact, and optionally sign out everywhere, revoke bypass codes, lock the account",
        params: activityReportParamsSchema,
        body: activityReportBodySchema,
        response: { 200: activityReportResponseSchema, ...COMMON_ERRORS, 404: errorBodySchema },
      },
    },
    async (request) => opts.reports.report(contextOf(request), request.params.id, request.body),
  );
}
