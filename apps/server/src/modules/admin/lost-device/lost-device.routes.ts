import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminAccountStatusBodySchema,
  adminLostDeviceBodySchema,
  adminLostDeviceProgressSchema,
  adminLostDeviceResponseSchema,
  adminSignOutEverywhereResponseSchema as signedOutSchema,
  adminUserParamsSchema,
} from '@mfa-portal/shared';
import { contextOf } from '../../common/request-context.js';
import { ADMIN_ERRORS, ADMIN_TAGS, SECURITY } from '../../common/route-schemas.js';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import type { LostDeviceService } from './lost-device.service.js';

/**
 * The lost-device wizard under `<basePath>api/admin/users/:upn/lost-device`: run it, and where it stands.
 * Every route: bearer token, then the policy decision (a denial is audited), then validation and the service.
 */
export async function lostDeviceRoutes(app: FastifyInstance, opts: AdminRoutesOptions & { service: LostDeviceService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const lostDevice = opts.service;
  const { onUser, roleOf } = installAdminHooks(app, opts);

  r.post(
    '/users/:upn/lost-device',
    {
      preValidation: onUser('admin.user.lost_device'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Lost device: remove it and issue one single-use bypass code valid at most 24 hours',
        description: 'Verify the caller first (verify-identity). Run again after an interruption: a removal already done is skipped.',
        params: adminUserParamsSchema,
        body: adminLostDeviceBodySchema,
        response: { 201: adminLostDeviceResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await lostDevice.lostDevice(contextOf(request), roleOf(request), request.params.upn, request.body)),
  );

  r.post(
    '/users/:upn/sign-out-everywhere',
    {
      preValidation: onUser('admin.user.lost_device'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Sign the user out everywhere: every access token issued until now is refused',
        description: 'For a lost or stolen device that may hold a signed-in portal. Audited with the reason and ticket.',
        params: adminUserParamsSchema,
        body: adminAccountStatusBodySchema,
        response: { 200: signedOutSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => lostDevice.signOutEverywhere(contextOf(request), roleOf(request), request.params.upn, request.body),
  );

  r.get(
    '/users/:upn/lost-device',
    {
      preValidation: onUser('admin.user.lost_device'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Where the lost-device wizard stands for the user (derived from the audit log and the devices)',
        description:
          "The caller's recent identity check, and the latest case of the last 24 hours: device removed, code issued (and whether still unused), devices added since, and whether one of them has been used since.",
        params: adminUserParamsSchema,
        response: { 200: adminLostDeviceProgressSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => lostDevice.lostDeviceProgress(contextOf(request), request.params.upn),
  );
}
