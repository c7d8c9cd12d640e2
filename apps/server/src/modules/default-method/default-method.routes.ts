import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { defaultMethodResponseSchema, setDefaultMethodBodySchema } from '@mfa-portal/shared';
import { contextOf } from '../common/request-context.js';
import { CHANGE_ERRORS, COMMON_ERRORS, ME_TAGS, SECURITY } from '../common/route-schemas.js';
import { installSelfServiceHooks } from '../common/self-routes.js';
import type { SelfRoutesOptions } from '../common/self-routes.js';
import type { DefaultMethodService } from './default-method.service.js';

/**
 * The caller's default sign-in method under `<basePath>api/me/default-method`: read it, and choose it.
 * Every route needs a bearer token and answers with `cache-control: no-store`.
 */
export async function defaultMethodRoutes(
  app: FastifyInstance,
  opts: Pick<SelfRoutesOptions, 'verify'> & { service: DefaultMethodService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  installSelfServiceHooks(app, opts.verify);

  r.get(
    '/default-method',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'My default sign-in method: what the sign-in page offers first, and what I can choose',
        description:
          'decidedBy says who decides: the portal, or (with nothing to choose here) the MFA service’s own prompt or the identity provider.',
        response: { 200: defaultMethodResponseSchema, ...COMMON_ERRORS },
      },
    },
    async (request) => opts.service.read(contextOf(request)),
  );

  r.put(
    '/default-method',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Choose my default sign-in method: one of my devices and how it is used (push, passcode or webauthn)',
        description:
          'No step-up: it changes what is offered first, not what is accepted. 404 device.not_found for a device that is not mine; 400 request.invalid (field method) for a way the device cannot be used at sign-in; 409 mfa.not_supported_by_provider where the portal does not decide.',
        body: setDefaultMethodBodySchema,
        response: { 200: defaultMethodResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => opts.service.choose(contextOf(request), request.body),
  );
}
