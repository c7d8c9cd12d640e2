import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { campaignParamsSchema, campaignSchema, campaignsResponseSchema, campaignStartBodySchema } from '@mfa-portal/shared';
import { contextOf } from '../../common/request-context.js';
import { ADMIN_ERRORS, ADMIN_TAGS, SECURITY } from '../../common/route-schemas.js';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import type { CampaignsAdminService } from './campaigns-admin.service.js';

/**
 * Enrolment campaigns under `<basePath>api/admin/campaigns` (Solution Administrators): list them with
 * their progress, start one on a directory group or an administrative unit, read one, end one. Bearer
 * token, then the policy decision (a denial is audited and answered 403 before the input is looked at),
 * then validation and the service.
 */
export async function campaignsAdminRoutes(app: FastifyInstance, opts: AdminRoutesOptions & { service: CampaignsAdminService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = opts;
  const { global, roleOf } = installAdminHooks(app, opts);
  const preValidation = global('admin.campaigns.manage');

  r.get(
    '/campaigns',
    {
      preValidation,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Enrolment campaigns, latest first, each with its progress now (enrolled, overdue, snoozed, reminded, mailed, waiting)',
        response: { 200: campaignsResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async () => service.list(),
  );

  r.post(
    '/campaigns',
    {
      preValidation,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary:
          'Start a campaign: the people of a directory group or an administrative unit who lack a device (or their policy’s factor) are asked to add one by a deadline',
        description:
          'Refused naming the field, nothing stored: settings out of bounds (400 request.invalid), a deadline not ahead or more than a year ahead (400 campaign.deadline_invalid), an unknown group or unit (400 campaign.target_unknown), one that holds nobody (400 campaign.target_empty), a campaign already running on it (409 campaign.already_running).',
        body: campaignStartBodySchema,
        response: { 201: campaignSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await service.start(contextOf(request), roleOf(request), request.body)),
  );

  r.get(
    '/campaigns/:id',
    {
      preValidation,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'One campaign with its progress now',
        params: campaignParamsSchema,
        response: { 200: campaignSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => service.get(request.params.id),
  );

  r.post(
    '/campaigns/:id/end',
    {
      preValidation,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'End a campaign: no more e-mails, no more banner (its progress stays readable)',
        description: 'An unknown campaign is 404 campaign.not_found; one already ended, 409 campaign.ended.',
        params: campaignParamsSchema,
        response: { 200: campaignSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => service.end(contextOf(request), roleOf(request), request.params.id),
  );
}
