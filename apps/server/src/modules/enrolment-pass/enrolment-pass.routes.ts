import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { enrolmentPolicyResponseSchema, errorBodySchema, redeemEnrolmentPassBodySchema } from '@mfa-portal/shared';
import type { TokenVerifier } from '../../auth/token-verifier.js';
import { installSelfServiceHooks } from '../common/self-routes.js';
import type { EnrolmentPassService } from './enrolment-pass.service.js';

const ERRORS = { 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema } as const;

/**
 * Self-service side of the first-device policy under `<basePath>api/me`: what the policy asks of the
 * caller now (`GET enrolment-policy`), and redeeming an enrolment pass in the add-device flow.
 */
export async function enrolmentPassRoutes(
  app: FastifyInstance,
  opts: { verify: TokenVerifier; service: EnrolmentPassService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The same bearer-token and no-store hooks as every other self-service routes plugin.
  installSelfServiceHooks(app, opts.verify);
  r.get(
    '/enrolment-policy',
    { schema: { tags: ['me'], security: [{ bearerAuth: [] }], response: { 200: enrolmentPolicyResponseSchema, ...ERRORS } } },
    async (request) => opts.service.status(request.caller),
  );
  r.post(
    '/enrolment-pass',
    {
      schema: {
        tags: ['me'],
        security: [{ bearerAuth: [] }],
        body: redeemEnrolmentPassBodySchema,
        response: { 200: enrolmentPolicyResponseSchema, ...ERRORS },
      },
    },
    async (request) =>
      opts.service.redeem(
        {
          upn: request.caller.upn,
          roles: request.caller.roles,
          requestId: request.id,
          clientAddress: request.ip ?? null,
          session: request.caller.session,
        },
        request.body.pass,
      ),
  );
}
