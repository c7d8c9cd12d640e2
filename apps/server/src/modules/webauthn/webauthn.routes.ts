import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  deviceIdParamsSchema,
  deviceSchema,
  errorBodySchema,
  finishAssertionBodySchema,
  finishRegistrationBodySchema,
  stepUpStatusSchema,
  webauthnOptionsResponseSchema,
  webauthnTestResponseSchema,
} from '@mfa-portal/shared';
import { installSelfServiceHooks, selfPolicy, type SelfRoutesOptions } from '../common/self-routes.js';
import type { WebauthnContext, WebauthnService } from './webauthn.service.js';

const ERRORS = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  410: errorBodySchema,
  429: errorBodySchema,
} as const;
const SECURITY = [{ bearerAuth: [] }];

const contextOf = (request: FastifyRequest): WebauthnContext => ({
  upn: request.caller.upn,
  roles: request.caller.roles,
  requestId: request.id,
  clientAddress: request.ip ?? null,
  session: request.caller.session,
});

export interface WebauthnRoutesOptions extends SelfRoutesOptions {
  service: WebauthnService;
}

/**
 * Passkeys and security keys for the signed-in user, under `<basePath>api/me`: register one, step up
 * with one, test one. Renaming and removing go through the device routes, like any other device.
 */
export async function webauthnRoutes(app: FastifyInstance, opts: WebauthnRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = opts;
  const TAGS = ['me'];
  // The same bearer-token and no-store hooks as every other self-service routes plugin.
  installSelfServiceHooks(app, opts.verify);
  /** A protected-account holder may not change their own MFA (as for every other device); a denial is audited. */
  const changeMfa = selfPolicy(opts.policy, opts.audit, opts.protectedFirstDevice)('me.change_mfa');

  r.post(
    '/webauthn/registration',
    {
      preValidation: changeMfa,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Start registering a passkey or security key: the options for navigator.credentials.create()',
        description: 'Needs a step-up when the user already has a device. Finish before expiresAt.',
        response: { 201: webauthnOptionsResponseSchema, ...ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await service.startRegistration(contextOf(request))),
  );

  r.post(
    '/webauthn/registration/verify',
    {
      preValidation: changeMfa,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Finish registering a passkey or security key, with the name its owner gives it',
        body: finishRegistrationBodySchema,
        response: { 201: deviceSchema, ...ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await service.finishRegistration(contextOf(request), request.body)),
  );

  r.post(
    '/step-up/webauthn/options',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Start a step-up with a passkey or security key: the options for navigator.credentials.get()',
        response: { 200: webauthnOptionsResponseSchema, ...ERRORS },
      },
    },
    async (request) => service.startAssertion(contextOf(request), 'step_up'),
  );

  r.post(
    '/step-up/webauthn',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Step up with a passkey or security key',
        body: finishAssertionBodySchema,
        response: { 200: stepUpStatusSchema, ...ERRORS },
      },
    },
    async (request) => service.stepUp(contextOf(request), request.body),
  );

  r.post(
    '/devices/:id/webauthn-test/options',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Start testing one of my passkeys or security keys',
        params: deviceIdParamsSchema,
        response: { 200: webauthnOptionsResponseSchema, ...ERRORS },
      },
    },
    async (request) => service.startAssertion(contextOf(request), 'device_test', { deviceId: request.params.id }),
  );

  r.post(
    '/devices/:id/webauthn-test',
    {
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Test one of my passkeys or security keys now',
        params: deviceIdParamsSchema,
        body: finishAssertionBodySchema,
        response: { 200: webauthnTestResponseSchema, ...ERRORS },
      },
    },
    async (request) => service.testDevice(contextOf(request), request.params.id, request.body),
  );
}
