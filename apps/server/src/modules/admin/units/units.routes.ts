import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminDirectoryGroupsQuerySchema,
  adminDirectoryGroupsResponseSchema,
  adminReachSchema,
  adminUnitBodySchema,
  adminUnitParamsSchema,
  adminUnitSchema,
  adminUnitsResponseSchema,
} from '@mfa-portal/shared';
import { contextOf } from '../../common/request-context.js';
import { ADMIN_ERRORS, ADMIN_TAGS, SECURITY } from '../../common/route-schemas.js';
import type { AdminScopes } from '../common/admin-scope.js';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import type { UnitsService } from './units.service.js';

/**
 * Administrative units under `<basePath>api/admin`: `units` (Solution Administrators define them and
 * assign Helpdesk Administrators), `directory-groups` (what a unit may hold), and `units/mine` (whom
 * the caller can help, for every administrator). Bearer token, then the policy decision (a denial is
 * audited and answered 403 before the input is looked at), then validation and the service.
 */
export async function unitsRoutes(app: FastifyInstance, opts: AdminRoutesOptions & { service: UnitsService; scopes: AdminScopes }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = opts;
  const { global, roleOf, scopeOf } = installAdminHooks(app, opts);
  const manage = global('admin.units.manage');

  r.get(
    '/units/mine',
    {
      preValidation: global('admin.reach.read'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Whom the caller can help: everyone, the people of their units (named), or nobody yet',
        description:
          'A Helpdesk Administrator assigned to administrative units finds, sees and acts only on their people; with HELPDESK_SCOPE_REQUIRED one assigned to none reaches nobody.',
        response: { 200: adminReachSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => opts.scopes.reachOf(scopeOf(request)),
  );

  r.get(
    '/units',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Administrative units: each with who it holds (groups, people, how many now) and who serves it',
        response: { 200: adminUnitsResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async () => ({ units: await service.list() }),
  );

  r.post(
    '/units',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Create a unit: its name, members (directory groups, people) and Helpdesk Administrators (people, groups)',
        description:
          'Refused naming the field, nothing stored: an empty name (400 request.invalid), a name in use (409 unit.name_taken), an unknown group (400 unit.group_unknown), a person not in the directory (400 unit.person_unknown), a helpdesk assignment of someone without the Helpdesk Administrator role (400 unit.not_helpdesk).',
        body: adminUnitBodySchema,
        response: { 201: adminUnitSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(contextOf(request), roleOf(request), request.body)),
  );

  r.get(
    '/units/:id',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'One unit',
        params: adminUnitParamsSchema,
        response: { 200: adminUnitSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => service.get(request.params.id),
  );

  r.put(
    '/units/:id',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: "Replace a unit's name, members and Helpdesk Administrators (the same checks as creating one)",
        params: adminUnitParamsSchema,
        body: adminUnitBodySchema,
        response: { 200: adminUnitSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => service.update(contextOf(request), roleOf(request), request.params.id, request.body),
  );

  r.delete(
    '/units/:id',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Delete a unit (its helpdesk members no longer reach its people through it)',
        params: adminUnitParamsSchema,
        response: { 200: adminUnitSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => service.remove(contextOf(request), roleOf(request), request.params.id),
  );

  r.get(
    '/directory-groups',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Directory (SCIM) groups whose name contains `q`, by name, with how many members each has: what a unit may hold',
        querystring: adminDirectoryGroupsQuerySchema,
        response: { 200: adminDirectoryGroupsResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => service.groups(request.query.q),
  );
}
