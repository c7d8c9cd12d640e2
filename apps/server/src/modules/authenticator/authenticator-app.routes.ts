import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activateBodySchema,
  activateResponseSchema,
  authenticatorInfoSchema,
  errorBodySchema,
  pendingPushRequestsSchema,
  pushAnswerBodySchema,
  pushAnswerResponseSchema,
  pushReportResponseSchema,
  pushRequestParamsSchema,
  pushSubscriptionBodySchema,
} from '@mfa-portal/shared';
import type { MfaProvider } from '../../mfa/port.js';
import type { AuthenticatorAppService } from './authenticator-app.service.js';
import { deviceAuth } from './device-auth.js';
import type { PushEvents } from './push-events.js';
import { openSse } from './sse.js';

/** Activations per client address: a link's token is 32 random bytes, but nobody needs to try many. */
export const ACTIVATE_RATE_LIMIT = { max: 10, timeWindow: 60_000 } as const;

const TAGS = ['authenticator'];
const DEVICE_SECURITY = [{ portalDevice: [] }];
const ERRORS = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };
const ANSWER_ERRORS = { ...ERRORS, 409: errorBodySchema, 410: errorBodySchema };

/**
 * The API of the portal's authenticator app, at `<basePath>authenticator/api/` (outside `api/`: no
 * bearer token here). `info` and `activate` are public (the activation link's token is the proof);
 * every other route needs a request signed by the device's key (see device-auth.ts). Answers are
 * `cache-control: no-store`.
 */
export async function authenticatorAppRoutes(
  app: FastifyInstance,
  opts: { service: AuthenticatorAppService; mfa: MfaProvider; events: PushEvents },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service, events } = opts;
  const device = deviceAuth(opts.mfa);
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  r.get(
    '/info',
    {
      schema: {
        tags: TAGS,
        summary: "The portal's name, the Web Push (VAPID) public key and the push time-out",
        response: { 200: authenticatorInfoSchema },
      },
    },
    async () => service.info(),
  );

  r.post(
    '/activate',
    {
      config: { rateLimit: ACTIVATE_RATE_LIMIT },
      schema: {
        tags: TAGS,
        summary: 'Activate this app for an account with the token of an activation link; registers the device key',
        description:
          '404 authenticator.activation_invalid, 410 authenticator.activation_expired, 409 authenticator.activation_used; 409 mfa.has_devices when a device was added meanwhile without a step-up.',
        body: activateBodySchema,
        response: { 201: activateResponseSchema, ...ANSWER_ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.activate(request.body, { requestId: request.id, clientAddress: request.ip ?? null })),
  );

  r.get(
    '/requests',
    {
      onRequest: device,
      schema: {
        tags: TAGS,
        security: DEVICE_SECURITY,
        summary: "This device's pushes waiting for an answer (what, where, when; never the number)",
        response: { 200: pendingPushRequestsSchema, ...ERRORS },
      },
    },
    async (request) => ({ requests: await service.pendingRequests(request.device) }),
  );

  r.get(
    '/events',
    {
      onRequest: device,
      schema: {
        tags: TAGS,
        security: DEVICE_SECURITY,
        summary: 'Server-sent events: `request` for each pending push, `closed` {id, state} when one ends',
        description: 'A comment line every 15 s keeps the stream open; it ends when the device is removed.',
        response: { 200: z.string().describe('text/event-stream'), ...ERRORS },
      },
    },
    async (request, reply) => {
      events.watchDevice(openSse(reply), { upn: request.device.upn, deviceId: request.device.deviceId });
      return reply;
    },
  );

  r.post(
    '/requests/:id/answer',
    {
      onRequest: device,
      schema: {
        tags: TAGS,
        security: DEVICE_SECURITY,
        summary: 'Approve (with the number shown in the browser) or deny a push, signed by the device key',
        description:
          '401 push.signature_invalid, 403 push.number_mismatch (the request is refused and it counts towards the lockout), 410 push.expired, 409 push.already_answered, 404 push.not_found.',
        params: pushRequestParamsSchema,
        body: pushAnswerBodySchema,
        response: { 200: pushAnswerResponseSchema, ...ANSWER_ERRORS },
      },
    },
    async (request) => service.answer(request.device, request.params.id, request.body),
  );

  r.post(
    '/requests/:id/report',
    {
      onRequest: device,
      schema: {
        tags: TAGS,
        security: DEVICE_SECURITY,
        summary: '"This wasn\'t me": report a push this device denied (the security contact is told)',
        params: pushRequestParamsSchema,
        response: { 200: pushReportResponseSchema, ...ANSWER_ERRORS },
      },
    },
    async (request) => service.report(request.device, request.params.id),
  );

  r.put(
    '/push-subscription',
    {
      onRequest: device,
      schema: {
        tags: TAGS,
        security: DEVICE_SECURITY,
        summary: "Set (or clear, with null) this device's Web Push subscription",
        body: pushSubscriptionBodySchema,
        response: { 204: z.null().describe('No content'), ...ERRORS },
      },
    },
    async (request, reply) => {
      await service.setPushSubscription(request.device, request.body.pushSubscription);
      return reply.code(204).send(null);
    },
  );
}
