import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminActionBodySchema,
  adminActivationResponseSchema,
  adminAuditQuerySchema,
  adminAuditResponseSchema,
  adminAuditVerifyResponseSchema,
  adminCreateBypassCodesBodySchema,
  adminDeleteDeviceBodySchema,
  adminDeviceParamsSchema,
  adminDeviceResponseSchema,
  adminLostDeviceBodySchema,
  adminLostDeviceProgressSchema,
  adminLostDeviceResponseSchema,
  adminResyncBodySchema,
  adminTokenImportBodySchema,
  adminTokenImportResponseSchema,
  adminTokenParamsSchema,
  adminTokenSchema,
  adminTokensQuerySchema,
  adminTokensResponseSchema,
  adminUnlockResponseSchema,
  adminUserDetailSchema,
  adminUserParamsSchema,
  adminUserSearchQuerySchema,
  adminUsersResponseSchema,
  adminVerifyIdentityBodySchema,
  adminVerifyIdentityResponseSchema,
  adminVerifyPushBodySchema,
  adminVerifyPushResponseSchema,
  adminVerifyPushStatusSchema,
  pushIdParamsSchema,
  createBypassCodesResponseSchema,
  errorBodySchema,
  type PortalRole,
} from '@mfa-portal/shared';
import { authenticate } from '../../auth/authenticate.js';
import type { AdminGlobalAction, AdminUserAction } from '../../auth/policy.js';
import type { TokenVerifier } from '../../auth/token-verifier.js';
import type { AdminContext, AdminService, Justification } from './admin.service.js';

const ERRORS = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
} as const;
const TAGS = ['admin'];
const SECURITY = [{ bearerAuth: [] }];

const contextOf = (request: FastifyRequest): AdminContext => ({
  upn: request.caller.upn,
  roles: request.caller.roles,
  requestId: request.id,
  clientAddress: request.ip ?? null,
});

/** Ticket (and reason) as sent, before validation: recorded with a denied attempt when they are strings. */
function justificationOf(request: FastifyRequest): Justification {
  const body = request.body as { reason?: unknown; ticket?: unknown } | null | undefined;
  if (!body || typeof body !== 'object') return {};
  const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : undefined);
  const ticket = text(body.ticket, 64);
  return ticket ? { ticket } : {};
}

/**
 * The administration API under `<basePath>api/admin`. Every route: bearer token (onRequest), then the
 * policy decision (preValidation, so a denied caller learns nothing about the input and nothing is
 * read or changed; the denial is audited), then validation and the service.
 */
export async function adminRoutes(app: FastifyInstance, opts: { verify: TokenVerifier; service: AdminService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = opts.service;
  const roles = new WeakMap<FastifyRequest, PortalRole>();
  const roleOf = (request: FastifyRequest): PortalRole => roles.get(request) ?? 'staff';

  app.addHook('onRequest', authenticate(opts.verify));
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  // The token import accepts the CSV file itself.
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const onUser = (action: AdminUserAction) => async (request: FastifyRequest) => {
    const upn = String((request.params as { upn?: unknown }).upn ?? '')
      .trim()
      .toLowerCase();
    const { role } = await admin.authorizeUser(contextOf(request), upn, action, justificationOf(request));
    roles.set(request, role);
  };
  const global = (action: AdminGlobalAction) => async (request: FastifyRequest) => {
    const { role } = await admin.authorizeGlobal(contextOf(request), action, justificationOf(request));
    roles.set(request, role);
  };

  // --- users (Helpdesk and Solution Administrators) ---

  r.get(
    '/users',
    {
      preValidation: global('admin.users.search'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Search users by name, upn or email',
        querystring: adminUserSearchQuerySchema,
        response: { 200: adminUsersResponseSchema, ...ERRORS },
      },
    },
    async (request) => admin.searchUsers(contextOf(request), request.query),
  );

  r.get(
    '/users/:upn',
    {
      preValidation: onUser('admin.user.read'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: "A user's status, devices, bypass-code metadata, activity, protection and the actions available",
        params: adminUserParamsSchema,
        response: { 200: adminUserDetailSchema, ...ERRORS },
      },
    },
    async (request) => admin.getUser(contextOf(request), request.params.upn),
  );

  r.post(
    '/users/:upn/verify-identity',
    {
      preValidation: onUser('admin.user.verify_identity'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Check a passcode the caller reads from one of their devices (result audited)',
        params: adminUserParamsSchema,
        body: adminVerifyIdentityBodySchema,
        response: { 200: adminVerifyIdentityResponseSchema, ...ERRORS },
      },
    },
    async (request) => admin.verifyIdentity(contextOf(request), roleOf(request), request.params.upn, request.body),
  );

  r.post(
    '/users/:upn/verify-identity/push',
    {
      preValidation: onUser('admin.user.verify_identity'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: "Send a verification push to one of the user's phones; read them the confirmation code, then poll",
        description: '409 mfa.not_supported_by_provider when the provider cannot send pushes.',
        params: adminUserParamsSchema,
        body: adminVerifyPushBodySchema,
        response: { 202: adminVerifyPushResponseSchema, ...ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await admin.verifyIdentityPush(contextOf(request), roleOf(request), request.params.upn, request.body.deviceId)),
  );

  r.get(
    '/users/:upn/verify-identity/push/:txid',
    {
      preValidation: onUser('admin.user.verify_identity'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'The answer to a verification push this administrator sent (result audited once)',
        params: adminUserParamsSchema.extend(pushIdParamsSchema.shape),
        response: { 200: adminVerifyPushStatusSchema, ...ERRORS },
      },
    },
    async (request) => admin.verifyIdentityPushStatus(contextOf(request), roleOf(request), request.params.upn, request.params.txid),
  );

  r.post(
    '/users/:upn/bypass-codes',
    {
      preValidation: onUser('admin.user.create_bypass_codes'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Issue bypass codes for the user (shown once)',
        params: adminUserParamsSchema,
        body: adminCreateBypassCodesBodySchema,
        response: { 201: createBypassCodesResponseSchema, ...ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await admin.createBypassCodes(contextOf(request), roleOf(request), request.params.upn, request.body)),
  );

  r.delete(
    '/users/:upn/devices/:id',
    {
      preValidation: onUser('admin.user.delete_device'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: "Remove one of the user's devices (a hardware token returns to the inventory)",
        params: adminDeviceParamsSchema,
        body: adminDeleteDeviceBodySchema,
        response: { 200: adminDeviceResponseSchema, ...ERRORS },
      },
    },
    async (request) => admin.deleteDevice(contextOf(request), roleOf(request), request.params.upn, request.params.id, request.body),
  );

  r.post(
    '/users/:upn/devices/:id/resync',
    {
      preValidation: onUser('admin.user.resync_token'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: "Resynchronise the user's hardware token with three consecutive codes",
        params: adminDeviceParamsSchema,
        body: adminResyncBodySchema,
        response: { 200: adminDeviceResponseSchema, ...ERRORS },
      },
    },
    async (request) => admin.resyncToken(contextOf(request), roleOf(request), request.params.upn, request.params.id, request.body),
  );

  r.post(
    '/users/:upn/lost-device',
    {
      preValidation: onUser('admin.user.lost_device'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Lost device: remove it and issue one single-use bypass code valid at most 24 hours',
        description: 'Verify the caller first (verify-identity). Run again after an interruption: a removal already done is skipped.',
        params: adminUserParamsSchema,
        body: adminLostDeviceBodySchema,
        response: { 201: adminLostDeviceResponseSchema, ...ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await admin.lostDevice(contextOf(request), roleOf(request), request.params.upn, request.body)),
  );

  r.get(
    '/users/:upn/lost-device',
    {
      preValidation: onUser('admin.user.lost_device'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Where the lost-device wizard stands for the user (derived from the audit log and the devices)',
        description:
          "The caller's recent identity check, and the latest case of the last 24 hours: device removed, code issued (and whether still unused), devices added since, and whether one of them has been used since.",
        params: adminUserParamsSchema,
        response: { 200: adminLostDeviceProgressSchema, ...ERRORS },
      },
    },
    async (request) => admin.lostDeviceProgress(contextOf(request), request.params.upn),
  );

  r.post(
    '/users/:upn/unlock',
    {
      preValidation: onUser('admin.user.unlock'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'End a lockout',
        params: adminUserParamsSchema,
        body: adminActionBodySchema,
        response: { 200: adminUnlockResponseSchema, ...ERRORS },
      },
    },
    async (request) => admin.unlock(contextOf(request), roleOf(request), request.params.upn, request.body),
  );

  r.post(
    '/users/:upn/activation',
    {
      preValidation: onUser('admin.user.send_activation'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Record an enrolment invitation and return the link to give the user',
        description: 'No e-mail is sent: the administrator passes the portal address on to the user.',
        params: adminUserParamsSchema,
        body: adminActionBodySchema,
        response: { 200: adminActivationResponseSchema, ...ERRORS },
      },
    },
    async (request) => admin.sendActivation(contextOf(request), roleOf(request), request.params.upn, request.body),
  );

  // --- token inventory (Solution Administrator) ---

  r.get(
    '/tokens',
    {
      preValidation: global('admin.inventory.manage'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'List and search hardware tokens',
        querystring: adminTokensQuerySchema,
        response: { 200: adminTokensResponseSchema, ...ERRORS },
      },
    },
    async (request) => admin.listTokens(request.query),
  );

  r.post(
    '/tokens/import',
    {
      preValidation: global('admin.inventory.manage'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Import Duo D100 tokens from CSV (header serial,seed; seeds in hex)',
        description: 'Send text/csv, or JSON {csv, reason?, ticket?}. Valid rows are imported; the others are reported with the reason.',
        body: adminTokenImportBodySchema,
        response: { 200: adminTokenImportResponseSchema, ...ERRORS },
      },
    },
    async (request) => {
      const body = request.body;
      const csv = typeof body === 'string' ? body : body.csv;
      const j =
        typeof body === 'string'
          ? {}
          : { ...(body.reason ? { reason: body.reason } : {}), ...(body.ticket ? { ticket: body.ticket } : {}) };
      return admin.importTokens(contextOf(request), roleOf(request), csv, j);
    },
  );

  r.post(
    '/tokens/:serial/unassign',
    {
      preValidation: global('admin.inventory.manage'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Take a token from its holder (their device of it is removed)',
        params: adminTokenParamsSchema,
        body: adminActionBodySchema,
        response: { 200: adminTokenSchema, ...ERRORS },
      },
    },
    async (request) => admin.unassignToken(contextOf(request), roleOf(request), request.params.serial, request.body),
  );

  r.post(
    '/tokens/:serial/retire',
    {
      preValidation: global('admin.inventory.manage'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Retire an unassigned token for good',
        params: adminTokenParamsSchema,
        body: adminActionBodySchema,
        response: { 200: adminTokenSchema, ...ERRORS },
      },
    },
    async (request) => admin.retireToken(contextOf(request), roleOf(request), request.params.serial, request.body),
  );

  // --- audit log (Solution Administrator) ---

  r.get(
    '/audit',
    {
      preValidation: global('admin.audit.read'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'The audit log, filtered, newest first',
        querystring: adminAuditQuerySchema,
        response: { 200: adminAuditResponseSchema, ...ERRORS },
      },
    },
    async (request) => admin.auditLog(request.query),
  );

  r.get(
    '/audit.csv',
    {
      preValidation: global('admin.audit.read'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'The filtered audit log as CSV',
        querystring: adminAuditQuerySchema,
        response: { ...ERRORS },
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        // Text, not one of the JSON bodies the schema types.
        .send((await admin.auditCsv(request.query)) as never),
  );

  r.get(
    '/audit/verify',
    {
      preValidation: global('admin.audit.read'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Verify the hash chain of the audit log; reports the first broken link',
        response: { 200: adminAuditVerifyResponseSchema, ...ERRORS },
      },
    },
    async () => admin.auditVerify(),
  );
}
