import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { myFactorPolicySchema } from '@mfa-portal/shared';
import { COMMON_ERRORS, ME_TAGS, SECURITY } from '../common/route-schemas.js';
import { installSelfServiceHooks, type SelfRoutesOptions } from '../common/self-routes.js';
import type { FactorPolicyService } from './factor-policy.service.js';

/**
 * `<basePath>api/me/factor-policy`: what the caller's factor policy lets them add and use now, so the web
 * application offers only that and says why the rest is missing. Read from the directory on every call
 * (a person who joins or leaves a group sees the change on their next request). Bearer token, no-store.
 */
export async function factorPolicyRoutes(
  app: FastifyInstance,
  opts: Pick<SelfRoutesOptions, 'verify'> & { service: FactorPolicyService },
): Promise<void> {
  installSelfServiceHooks(app, opts.verify);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/factor-policy',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'My factor policy: which kinds of device I may add and use now, and why the others are not offered',
        description:
          'enrol lists what I may add now (allowed, usable, below the limit); unavailable says why each other kind is not offered; disallowedDevices names my devices the policy no longer lets me use (kept, never deleted by the policy).',
        response: { 200: myFactorPolicySchema, ...COMMON_ERRORS },
      },
    },
    async (request) => opts.service.mine(request.caller.upn.toLowerCase()),
  );
}
