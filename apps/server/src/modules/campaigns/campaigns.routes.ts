import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { campaignParamsSchema, myCampaignResponseSchema } from '@mfa-portal/shared';
import { CHANGE_ERRORS, COMMON_ERRORS, ME_TAGS, SECURITY } from '../common/route-schemas.js';
import { contextOf } from '../common/request-context.js';
import { installSelfServiceHooks, type SelfRoutesOptions } from '../common/self-routes.js';
import type { CampaignsService } from './campaigns.service.js';

/**
 * `<basePath>api/me/campaign`: the enrolment campaign banner of the caller, and "Remind me later".
 * Both act on the caller's own state only (no person in the path), so no session of one person can
 * read or put off another's banner. Bearer token, no-store.
 */
export async function campaignsRoutes(app: FastifyInstance, opts: Pick<SelfRoutesOptions, 'verify'> & { service: CampaignsService }) {
  installSelfServiceHooks(app, opts.verify);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/campaign',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'The enrolment campaign banner to show me now, or null',
        description:
          'An active campaign that asks me for a device (or the factor my policy requires) that I still lack, and that I have not put off: its deadline and how many times I may still put it off. Once I have added what it asks for, null.',
        response: { 200: myCampaignResponseSchema, ...COMMON_ERRORS },
      },
    },
    async (request) => opts.service.mine(request.caller.upn),
  );

  r.post(
    '/campaign/:id/snooze',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: '"Remind me later": hide my banner of this campaign for its snooze length',
        description:
          'Only while snoozes are left (409 campaign.snooze_limit_reached) and before the deadline (409 campaign.overdue); a campaign not open for me is 404 campaign.not_found. Answers the banner to show next.',
        params: campaignParamsSchema,
        response: { 200: myCampaignResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => opts.service.snooze(contextOf(request), request.params.id),
  );
}
