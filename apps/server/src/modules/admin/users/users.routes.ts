import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminActionBodySchema,
  adminActivationResponseSchema,
  adminCreateBypassCodesBodySchema,
  adminDeleteDeviceBodySchema,
  adminDeviceParamsSchema,
  adminDeviceResponseSchema,
  adminManualVerificationBodySchema,
  adminResyncBodySchema,
  adminUnlockResponseSchema,
  adminUserDetailSchema,
  adminUserParamsSchema,
  adminUserSearchQuerySchema,
  adminUsersResponseSchema,
  adminVerificationStateSchema,
  adminVerifyIdentityBodySchema,
  adminVerifyIdentityResponseSchema,
  adminVerifyPushBodySchema,
  adminVerifyPushResponseSchema,
  adminVerifyPushStatusSchema,
  createBypassCodesResponseSchema,
  pushIdParamsSchema,
} from '@mfa-portal/shared';
import { contextOf } from '../../common/request-context.js';
import { ADMIN_ERRORS, ADMIN_TAGS, SECURITY } from '../../common/route-schemas.js';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import type { UsersService } from './users.service.js';

/**
 * Acting on one user under `<basePath>api/admin/users`: search, read, identity check, bypass codes,
 * devices, unlock and the enrolment link.
 * Every route: bearer token, then the policy decision (a denial is audited), then validation and the service.
 */
export async function adminUserRoutes(app: FastifyInstance, opts: AdminRoutesOptions & { service: UsersService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const users = opts.service;
  const { onUser, global, roleOf, scopeOf } = installAdminHooks(app, opts);

  r.get(
    '/users',
    {
      preValidation: global('admin.users.search'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Search users by name, upn or email (a Helpdesk Administrator limited to units: only their people)',
        querystring: adminUserSearchQuerySchema,
        response: { 200: adminUsersResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => users.searchUsers(contextOf(request), request.query, scopeOf(request)),
  );

  r.get(
    '/users/:upn',
    {
      preValidation: onUser('admin.user.read'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: "A user's status, devices, bypass-code metadata, activity, protection and the actions available",
        params: adminUserParamsSchema,
        response: { 200: adminUserDetailSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => users.getUser(contextOf(request), request.params.upn),
  );

  r.post(
    '/users/:upn/verify-identity',
    {
      preValidation: onUser('admin.user.verify_identity'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Check a passcode the caller reads from one of their devices (result audited)',
        params: adminUserParamsSchema,
        body: adminVerifyIdentityBodySchema,
        response: { 200: adminVerifyIdentityResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => users.verifyIdentity(contextOf(request), roleOf(request), request.params.upn, request.body),
  );

  r.post(
    '/users/:upn/verify-identity/push',
    {
      preValidation: onUser('admin.user.verify_identity'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: "Send a verification push to one of the user's phones; read them the confirmation code, then poll",
        description: '409 mfa.not_supported_by_provider when the provider cannot send pushes.',
        params: adminUserParamsSchema,
        body: adminVerifyPushBodySchema,
        response: { 202: adminVerifyPushResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await users.verifyIdentityPush(
            contextOf(request),
            roleOf(request),
            request.params.upn,
            request.body.deviceId,
            request.body.ticket,
          ),
        ),
  );

  r.post(
    '/users/:upn/verify-identity/manual',
    {
      preValidation: onUser('admin.user.verify_identity'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Record a verification of the caller made by hand (no device left): how, and the ticket (audited)',
        description:
          'For a caller who has lost every device: photo ID on a video call, a call back on the number in the HR record, in person, or confirmed by their manager. Counts as a verification for the window, as a right passcode or an approved push does.',
        params: adminUserParamsSchema,
        body: adminManualVerificationBodySchema,
        response: { 201: adminVerificationStateSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await users.verifyIdentityManually(contextOf(request), roleOf(request), request.params.upn, request.body)),
  );

  r.get(
    '/users/:upn/verify-identity/push/:txid',
    {
      preValidation: onUser('admin.user.verify_identity'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'The answer to a verification push this administrator sent (result audited once)',
        params: adminUserParamsSchema.extend(pushIdParamsSchema.shape),
        response: { 200: adminVerifyPushStatusSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => users.verifyIdentityPushStatus(contextOf(request), roleOf(request), request.params.upn, request.params.txid),
  );

  r.post(
    '/users/:upn/bypass-codes',
    {
      preValidation: onUser('admin.user.create_bypass_codes'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Issue bypass codes for the user (shown once)',
        description: 'A Helpdesk Administrator must have verified the user within the window first (403 admin.verification_required).',
        params: adminUserParamsSchema,
        body: adminCreateBypassCodesBodySchema,
        response: { 201: createBypassCodesResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await users.createBypassCodes(contextOf(request), roleOf(request), request.params.upn, request.body)),
  );

  r.delete(
    '/users/:upn/devices/:id',
    {
      preValidation: onUser('admin.user.delete_device'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: "Remove one of the user's devices (a hardware token returns to the inventory)",
        description: 'A Helpdesk Administrator must have verified the user within the window first (403 admin.verification_required).',
        params: adminDeviceParamsSchema,
        body: adminDeleteDeviceBodySchema,
        response: { 200: adminDeviceResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => users.deleteDevice(contextOf(request), roleOf(request), request.params.upn, request.params.id, request.body),
  );

  r.post(
    '/users/:upn/devices/:id/resync',
    {
      preValidation: onUser('admin.user.resync_token'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: "Resynchronise the user's hardware token with three consecutive codes",
        description: 'A Helpdesk Administrator must have verified the user within the window first (403 admin.verification_required).',
        params: adminDeviceParamsSchema,
        body: adminResyncBodySchema,
        response: { 200: adminDeviceResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => users.resyncToken(contextOf(request), roleOf(request), request.params.upn, request.params.id, request.body),
  );

  r.post(
    '/users/:upn/unlock',
    {
      preValidation: onUser('admin.user.unlock'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'End a lockout',
        params: adminUserParamsSchema,
        body: adminActionBodySchema,
        response: { 200: adminUnlockResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => users.unlock(contextOf(request), roleOf(request), request.params.upn, request.body),
  );

  r.post(
    '/users/:upn/activation',
    {
      preValidation: onUser('admin.user.send_activation'),
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Record an enrolment invitation and return the link to give the user',
        description: 'No e-mail is sent: the administrator passes the portal address on to the user.',
        params: adminUserParamsSchema,
        body: adminActionBodySchema,
        response: { 200: adminActivationResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => users.sendActivation(contextOf(request), roleOf(request), request.params.upn, request.body),
  );
}
