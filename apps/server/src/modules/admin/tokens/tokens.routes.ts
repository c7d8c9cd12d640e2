import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminActionBodySchema,
  adminTokenImportBodySchema,
  adminTokenImportResponseSchema,
  adminTokenParamsSchema,
  adminTokenSchema,
  adminTokensQuerySchema,
  adminTokensResponseSchema,
  adminTokenUnassignBodySchema,
} from '@mfa-portal/shared';
import { contextOf } from '../../common/request-context.js';
import { ADMIN_ERRORS, ADMIN_TAGS, SECURITY } from '../../common/route-schemas.js';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import type { TokensService } from './tokens.service.js';

/**
 * The hardware-token inventory under `<basePath>api/admin/tokens` (Solution Administrators).
 * Every route: bearer token, then the policy decision (a denial is audited), then validation and the service.
 */
export async function tokenRoutes(app: FastifyInstance, opts: AdminRoutesOptions & { service: TokensService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tokens = opts.service;
  const { global, roleOf } = installAdminHooks(app, opts);

  r.get(
    '/tokens',
    {
      preValidation: global('admin.inventory.manage'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'List and search hardware tokens',
        querystring: adminTokensQuerySchema,
        response: { 200: adminTokensResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => tokens.listTokens(request.query),
  );

  r.post(
    '/tokens/import',
    {
      preValidation: global('admin.inventory.manage'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Import Duo D100 tokens from CSV (header serial,seed; seeds in hex)',
        description: 'Send text/csv, or JSON {csv, reason?, ticket?}. Valid rows are imported; the others are reported with the reason.',
        body: adminTokenImportBodySchema,
        response: { 200: adminTokenImportResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const body = request.body;
      const csv = typeof body === 'string' ? body : body.csv;
      const j =
        typeof body === 'string'
          ? {}
          : { ...(body.reason ? { reason: body.reason } : {}), ...(body.ticket ? { ticket: body.ticket } : {}) };
      return tokens.importTokens(contextOf(request), roleOf(request), csv, j);
    },
  );

  r.post(
    '/tokens/:serial/unassign',
    {
      preValidation: global('admin.inventory.manage'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Take a token from its holder (their device of it is removed)',
        description: "When it is the holder's only device, needs confirmLastDevice=true (409 otherwise), as removing a device does.",
        params: adminTokenParamsSchema,
        body: adminTokenUnassignBodySchema,
        response: { 200: adminTokenSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => tokens.unassignToken(contextOf(request), roleOf(request), request.params.serial, request.body),
  );

  r.post(
    '/tokens/:serial/retire',
    {
      preValidation: global('admin.inventory.manage'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Retire an unassigned token for good',
        params: adminTokenParamsSchema,
        body: adminActionBodySchema,
        response: { 200: adminTokenSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => tokens.retireToken(contextOf(request), roleOf(request), request.params.serial, request.body),
  );
}
