import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createScimTokenRequestSchema,
  createScimTokenResponseSchema,
  errorBodySchema,
  scimTokenSchema,
  scimTokensResponseSchema,
} from '@mfa-portal/shared';
import { contextOf } from '../../common/request-context.js';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import type { ScimTokensService } from '../../scim/scim-tokens.service.js';

const ERRORS = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema } as const;

/**
 * `/api/admin/scim-tokens`: the bearer tokens of SCIM provisioning, for the Solution Administrator
 * only (a denial is audited and answered 403 before the input is looked at).
 */
export async function scimTokensAdminRoutes(
  app: FastifyInstance,
  opts: AdminRoutesOptions & { tokens: ScimTokensService; endpoint: string },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The same bearer-token, no-store and audited policy hooks as every other admin routes plugin.
  const { global } = installAdminHooks(app, opts);
  app.addHook('preValidation', global('admin.scim_tokens.manage'));

  r.get(
    '',
    { schema: { tags: ['admin'], security: [{ bearerAuth: [] }], response: { 200: scimTokensResponseSchema, ...ERRORS } } },
    async (_request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send({ tokens: await opts.tokens.list(), environmentToken: opts.tokens.hasEnvironmentToken, endpoint: opts.endpoint }),
  );
  r.post(
    '',
    {
      schema: {
        tags: ['admin'],
        security: [{ bearerAuth: [] }],
        body: createScimTokenRequestSchema,
        response: { 201: createScimTokenResponseSchema, ...ERRORS },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(await opts.tokens.create(contextOf(request), request.body.name)),
  );
  r.delete(
    '/:id',
    {
      schema: {
        tags: ['admin'],
        security: [{ bearerAuth: [] }],
        params: z.object({ id: z.uuid('must be a token id') }),
        response: { 200: scimTokenSchema, ...ERRORS },
      },
    },
    async (request, reply) => reply.send(await opts.tokens.revoke(contextOf(request), request.params.id)),
  );
}
