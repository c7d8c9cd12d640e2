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
 * The caller's activity under `<basePath>api/me/activity`: the audit events about their account told
 * as entries, and "Doesn't look like you?" on one of them. Every route needs a bearer token and
 * answers with `cache-control: no-store`.
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
        summary: 'My activity as entries (a sign-in, a change, a service-desk action), newest first',
        description:
          'Each entry groups the audit events of one sign-in, change or service-desk action, names what happened from closed lists (story, step, method), and says where it came from. `limit` counts entries; `nextCursor` always falls between two entries.',
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
          "Doesn't look like you?: report an entry (by its id), tell the security contact, and optionally sign out everywhere, revoke bypass codes, lock the account",
        params: activityReportParamsSchema,
        body: activityReportBodySchema,
        response: { 200: activityReportResponseSchema, ...COMMON_ERRORS, 404: errorBodySchema },
      },
    },
    async (request) => opts.reports.report(contextOf(request), request.params.id, request.body),
  );
}
