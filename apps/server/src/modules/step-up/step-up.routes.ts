import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  pushIdParamsSchema,
  startedPushSchema,
  stepUpBodySchema,
  stepUpPushBodySchema,
  stepUpPushStatusSchema,
  stepUpStatusSchema,
} from '@mfa-portal/shared';
import { contextOf } from '../common/request-context.js';
import { CHANGE_ERRORS, COMMON_ERRORS, ME_TAGS, SECURITY } from '../common/route-schemas.js';
import { installSelfServiceHooks, type SelfRoutesOptions } from '../common/self-routes.js';
import type { StepUpFlows } from './step-up-flows.service.js';

/**
 * Step-up under `<basePath>api/me/step-up`: its status, and verifying with a passcode, a bypass code or a push.
 * Every route needs a bearer token and answers with `cache-control: no-store`.
 */
export async function stepUpRoutes(app: FastifyInstance, opts: SelfRoutesOptions & { service: StepUpFlows }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const flows = opts.service;
  installSelfServiceHooks(app, opts.verify);

  r.get(
    '/step-up',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Whether a recent step-up allows sensitive changes, and until when',
        response: { 200: stepUpStatusSchema, ...COMMON_ERRORS },
      },
    },
    async (request) => flows.stepUpStatus(contextOf(request)),
  );

  r.post(
    '/step-up',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Verify with an existing factor (passcode or bypass code) to allow sensitive changes for a few minutes',
        body: stepUpBodySchema,
        response: { 200: stepUpStatusSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => flows.stepUp(contextOf(request), request.body),
  );

  r.post(
    '/step-up/push',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Step up by approving a push on one of my phones (answers at once; poll its state)',
        body: stepUpPushBodySchema,
        response: { 202: startedPushSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(202).send(await flows.startStepUpPush(contextOf(request), request.body.deviceId)),
  );

  r.get(
    '/step-up/push/:txid',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'The state of a step-up push; once approved, the step-up it gave',
        params: pushIdParamsSchema,
        response: { 200: stepUpPushStatusSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => flows.stepUpPushStatus(contextOf(request), request.params.txid),
  );
}
