import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activityQuerySchema,
  activityResponseSchema,
  bypassCodeIdParamsSchema,
  bypassCodeInfoSchema,
  bypassCodesResponseSchema,
  claimHardwareTokenBodySchema,
  confirmTotpBodySchema,
  createBypassCodesBodySchema,
  createBypassCodesResponseSchema,
  deleteDeviceQuerySchema,
  deviceIdParamsSchema,
  deviceSchema,
  devicesResponseSchema,
  enrolmentIdParamsSchema,
  errorBodySchema,
  renameDeviceBodySchema,
  resyncHardwareTokenBodySchema,
  stepUpBodySchema,
  stepUpStatusSchema,
  testDeviceBodySchema,
  testDeviceResponseSchema,
  totpEnrolmentResponseSchema,
  addPhoneBodySchema,
  phoneActivationResponseSchema,
  providerCapabilitiesSchema,
  pushIdParamsSchema,
  pushParamsSchema,
  pushTransactionSchema,
  smsActivationResponseSchema,
  stepUpPushBodySchema,
  stepUpPushStatusSchema,
} from '@mfa-portal/shared';
import { authenticate } from '../../auth/authenticate.js';
import type { Policy, SelfAction } from '../../auth/policy.js';
import type { TokenVerifier } from '../../auth/token-verifier.js';
import { AppError } from '../../lib/errors.js';
import type { AuditService } from '../audit/audit.service.js';
import type { MeContext, MeService } from './me.service.js';

/** Error answers every route may give (the bearer token, the account status, the verification budget). */
const COMMON_ERRORS = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
} as const;
const CHANGE_ERRORS = { ...COMMON_ERRORS, 409: errorBodySchema, 410: errorBodySchema, 422: errorBodySchema } as const;
const TAGS = ['me'];
const SECURITY = [{ bearerAuth: [] }];
const noContent = z.null().describe('No content');

const contextOf = (request: FastifyRequest): MeContext => ({
  upn: request.caller.upn,
  roles: request.caller.roles,
  requestId: request.id,
  clientAddress: request.ip ?? null,
});

/**
 * The self-service API under `<basePath>api/me`: the signed-in user's devices, bypass codes, step-up
 * and activity. Every route needs a bearer token (checked before any validation) and answers with
 * `cache-control: no-store` (enrolment secrets and bypass codes are shown once).
 */
export async function meRoutes(
  app: FastifyInstance,
  opts: { verify: TokenVerifier; service: MeService; policy?: Policy; audit?: AuditService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const me = opts.service;
  /**
   * preValidation: the policy's decision on a self-service change (a protected-account holder may not
   * change their own MFA nor mint their own bypass codes). A denial is audited; nothing else runs.
   */
  const self = (action: SelfAction) => async (request: FastifyRequest) => {
    if (!opts.policy) return;
    const decision = opts.policy.self({ upn: request.caller.upn, roles: request.caller.roles }, action);
    if (decision.allow) return;
    await opts.audit?.append({
      actor: { upn: request.caller.upn, roles: request.caller.roles },
      target: request.caller.upn,
      action,
      outcome: 'failure',
      reason: 'auth.protected_account',
      requestId: request.id,
      clientAddress: request.ip ?? null,
      details: { role: decision.role, denyReason: decision.reason, route: request.routeOptions.url ?? null },
    });
    throw new AppError(403, 'auth.protected_account', undefined, { reason: decision.reason });
  };
  const changeMfa = self('me.change_mfa');
  app.addHook('onRequest', authenticate(opts.verify));
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  r.get(
    '/devices',
    { schema: { tags: TAGS, security: SECURITY, summary: 'List my devices', response: { 200: devicesResponseSchema, ...COMMON_ERRORS } } },
    async (request) => me.listDevices(contextOf(request)),
  );

  r.get(
    '/capabilities',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'What the configured MFA provider can do (phones, text messages, push, authenticator apps, tokens)',
        response: { 200: providerCapabilitiesSchema, ...COMMON_ERRORS },
      },
    },
    async () => me.capabilities(),
  );

  r.post(
    '/devices/phone',
    {
      preValidation: changeMfa,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Add a phone (E.164 number and platform); then activate it for push',
        description:
          'Needs a step-up when the user already has a device. 409 mfa.not_supported_by_provider when the provider has no phone channel.',
        body: addPhoneBodySchema,
        response: { 201: deviceSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await me.addPhone(contextOf(request), request.body)),
  );

  r.get(
    '/devices/:id/activation',
    {
      preValidation: changeMfa,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: "A fresh activation link and QR code (SVG) for one of my phones' push app",
        description: 'Each call makes a new link (the previous one stops working). Needs a step-up when the user has another device.',
        params: deviceIdParamsSchema,
        response: { 200: phoneActivationResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => me.phoneActivation(contextOf(request), request.params.id),
  );

  r.post(
    '/devices/:id/activation/sms',
    {
      preValidation: changeMfa,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Send the activation link to one of my phones by text message',
        description: 'Needs a step-up when the user has another device.',
        params: deviceIdParamsSchema,
        response: { 200: smsActivationResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => me.sendSmsActivation(contextOf(request), request.params.id),
  );

  r.post(
    '/devices/:id/push',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Send a test push to one of my phones (answers at once; poll its state)',
        params: deviceIdParamsSchema,
        response: { 202: pushTransactionSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(202).send(await me.startTestPush(contextOf(request), request.params.id)),
  );

  r.get(
    '/devices/:id/push/:txid',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'The state of a test push: waiting, approved, denied, fraud or timeout',
        params: pushParamsSchema,
        response: { 200: pushTransactionSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => me.testPushStatus(contextOf(request), request.params.id, request.params.txid),
  );

  r.post(
    '/devices/authenticator',
    {
      preValidation: changeMfa,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Start adding an authenticator app (TOTP): returns the secret and QR code to scan',
        description: 'Needs a step-up when the user already has a device. Confirm within the enrolment lifetime.',
        response: { 201: totpEnrolmentResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await me.startTotpEnrolment(contextOf(request))),
  );

  r.post(
    '/devices/authenticator/:enrolmentId/confirm',
    {
      preValidation: changeMfa,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Confirm an authenticator enrolment with its first code',
        params: enrolmentIdParamsSchema,
        body: confirmTotpBodySchema,
        response: { 201: deviceSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await me.confirmTotpEnrolment(contextOf(request), request.params.enrolmentId, request.body)),
  );

  r.post(
    '/devices/hardware-token',
    {
      preValidation: changeMfa,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Claim a Duo D100 hardware token by serial and two consecutive codes',
        description: 'Needs a step-up when the user already has a device.',
        body: claimHardwareTokenBodySchema,
        response: { 201: deviceSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await me.claimHardwareToken(contextOf(request), request.body)),
  );

  r.post(
    '/devices/:id/resync',
    {
      preValidation: changeMfa,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Resynchronise my hardware token with three consecutive codes',
        params: deviceIdParamsSchema,
        body: resyncHardwareTokenBodySchema,
        response: { 200: deviceSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => me.resyncHardwareToken(contextOf(request), request.params.id, request.body.codes),
  );

  r.patch(
    '/devices/:id',
    {
      preValidation: changeMfa,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Rename one of my devices',
        params: deviceIdParamsSchema,
        body: renameDeviceBodySchema,
        response: { 200: deviceSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => me.renameDevice(contextOf(request), request.params.id, request.body.name),
  );

  r.delete(
    '/devices/:id',
    {
      preValidation: changeMfa,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Remove one of my devices (a hardware token returns to the inventory)',
        description: 'Needs a step-up. Removing the last device needs confirmLastDevice=true (409 otherwise).',
        params: deviceIdParamsSchema,
        querystring: deleteDeviceQuerySchema,
        response: { 204: noContent, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => {
      await me.deleteDevice(contextOf(request), request.params.id, request.query.confirmLastDevice === 'true');
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/devices/:id/test',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Check a passcode from one of my devices now',
        params: deviceIdParamsSchema,
        body: testDeviceBodySchema,
        response: { 200: testDeviceResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => me.testDevice(contextOf(request), request.params.id, request.body.code),
  );

  r.get(
    '/bypass-codes',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'List my live bypass codes (metadata only)',
        response: { 200: bypassCodesResponseSchema, ...COMMON_ERRORS },
      },
    },
    async (request) => me.listBypassCodes(contextOf(request)),
  );

  r.post(
    '/bypass-codes',
    {
      preValidation: self('me.create_bypass_codes'),
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Create bypass codes (shown once)',
        description: 'Needs a step-up. Keeps existing codes unless replaceExisting is true.',
        body: createBypassCodesBodySchema,
        response: { 201: createBypassCodesResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await me.createBypassCodes(contextOf(request), request.body)),
  );

  r.delete(
    '/bypass-codes/:id',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Revoke one of my bypass codes',
        params: bypassCodeIdParamsSchema,
        response: { 200: bypassCodeInfoSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => me.revokeBypassCode(contextOf(request), request.params.id),
  );

  r.get(
    '/step-up',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Whether a recent step-up allows sensitive changes, and until when',
        response: { 200: stepUpStatusSchema, ...COMMON_ERRORS },
      },
    },
    async (request) => me.stepUpStatus(contextOf(request)),
  );

  r.post(
    '/step-up',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Verify with an existing factor (passcode or bypass code) to allow sensitive changes for a few minutes',
        body: stepUpBodySchema,
        response: { 200: stepUpStatusSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => me.stepUp(contextOf(request), request.body),
  );

  r.post(
    '/step-up/push',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Step up by approving a push on one of my phones (answers at once; poll its state)',
        body: stepUpPushBodySchema,
        response: { 202: pushTransactionSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(202).send(await me.startStepUpPush(contextOf(request), request.body.deviceId)),
  );

  r.get(
    '/step-up/push/:txid',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'The state of a step-up push; once approved, the step-up it gave',
        params: pushIdParamsSchema,
        response: { 200: stepUpPushStatusSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => me.stepUpPushStatus(contextOf(request), request.params.txid),
  );

  r.get(
    '/activity',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Audit events about my account, newest first',
        querystring: activityQuerySchema,
        response: { 200: activityResponseSchema, ...COMMON_ERRORS },
      },
    },
    async (request) => me.activity(contextOf(request), request.query),
  );
}
