import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bypassCodeIdParamsSchema,
  bypassCodeInfoSchema,
  bypassCodesResponseSchema,
  createBypassCodesBodySchema,
  createBypassCodesResponseSchema,
} from '@mfa-portal/shared';
import { contextOf } from '../common/request-context.js';
import { CHANGE_ERRORS, COMMON_ERRORS, ME_TAGS, SECURITY } from '../common/route-schemas.js';
import { installSelfServiceHooks, selfPolicy, type SelfRoutesOptions } from '../common/self-routes.js';
import type { BypassCodesService } from './bypass-codes.service.js';

/**
 * The caller's bypass codes under `<basePath>api/me/bypass-codes`: list (metadata only), create (shown once), revoke.
 * Every route needs a bearer token and answers with `cache-control: no-store`.
 */
export async function bypassCodeRoutes(app: FastifyInstance, opts: SelfRoutesOptions & { service: BypassCodesService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const bypassCodes = opts.service;
  const self = selfPolicy(opts.policy, opts.audit, opts.protectedFirstDevice);
  installSelfServiceHooks(app, opts.verify);

  r.get(
    '/bypass-codes',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'List my live bypass codes (metadata only)',
        response: { 200: bypassCodesResponseSchema, ...COMMON_ERRORS },
      },
    },
    async (request) => bypassCodes.listBypassCodes(contextOf(request)),
  );

  r.post(
    '/bypass-codes',
    {
      preValidation: self('me.create_bypass_codes'),
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Create bypass codes (shown once)',
        description: 'Needs a step-up. Keeps existing codes unless replaceExisting is true.',
        body: createBypassCodesBodySchema,
        response: { 201: createBypassCodesResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await bypassCodes.createBypassCodes(contextOf(request), request.body)),
  );

  r.delete(
    '/bypass-codes/:id',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Revoke one of my bypass codes',
        params: bypassCodeIdParamsSchema,
        response: { 200: bypassCodeInfoSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => bypassCodes.revokeBypassCode(contextOf(request), request.params.id),
  );
}
