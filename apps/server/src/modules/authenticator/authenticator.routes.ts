import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { activationIdParamsSchema, authenticatorActivationSchema, authenticatorActivationStateSchema } from '@mfa-portal/shared';
import { contextOf } from '../common/request-context.js';
import { CHANGE_ERRORS, COMMON_ERRORS, ME_TAGS, SECURITY } from '../common/route-schemas.js';
import { installSelfServiceHooks, selfPolicy, type SelfRoutesOptions } from '../common/self-routes.js';
import type { AuthenticatorService } from './authenticator.service.js';

/**
 * Activating the portal's own authenticator app on a phone, under `<basePath>api/me/devices`: a
 * single-use link (QR code and text), then the state the desktop screen polls until the app used it.
 * Every route needs a bearer token and answers with `cache-control: no-store`.
 */
export async function authenticatorRoutes(
  app: FastifyInstance,
  opts: SelfRoutesOptions & { service: AuthenticatorService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = opts.service;
  const changeMfa = selfPolicy(opts.policy, opts.audit, opts.protectedFirstDevice)('me.change_mfa');
  installSelfServiceHooks(app, opts.verify);

  r.post(
    '/devices/authenticator-app',
    {
      preValidation: changeMfa,
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Start activating Portal Authenticator on a phone: a single-use link and its QR code (SVG)',
        description:
          'Needs a step-up when the user already has a device (the first-device policy otherwise). 409 mfa.not_supported_by_provider when the provider has its own phone app.',
        response: { 201: authenticatorActivationSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await service.startActivation(contextOf(request))),
  );

  r.get(
    '/devices/authenticator-app/:activationId',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Whether the app used the activation link yet (waiting, activated with the new device, expired)',
        description: "Another user's activation is 404 authenticator.activation_invalid.",
        params: activationIdParamsSchema,
        response: { 200: authenticatorActivationStateSchema, ...COMMON_ERRORS, 409: CHANGE_ERRORS[409] },
      },
    },
    async (request) => service.activationState(contextOf(request), request.params.activationId),
  );
}
