import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { providerCapabilitiesSchema, type ProviderCapabilitiesResponse } from '@mfa-portal/shared';
import type { MfaProvider } from '../../mfa/port.js';
import { COMMON_ERRORS, ME_TAGS, SECURITY } from '../common/route-schemas.js';
import { installSelfServiceHooks, type SelfRoutesOptions } from '../common/self-routes.js';

/** What the configured MFA provider can do, so the web application offers only that. */
export function capabilitiesOf(mfa: MfaProvider): ProviderCapabilitiesResponse {
  return { provider: mfa.name, ...mfa.capabilities };
}

/** `<basePath>api/me/capabilities`. Needs a bearer token; answers with `cache-control: no-store`. */
export async function capabilitiesRoutes(
  app: FastifyInstance,
  opts: Pick<SelfRoutesOptions, 'verify'> & { mfa: MfaProvider },
): Promise<void> {
  installSelfServiceHooks(app, opts.verify);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/capabilities',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'What the configured MFA provider can do (phones, text messages, push, authenticator apps, tokens)',
        response: { 200: providerCapabilitiesSchema, ...COMMON_ERRORS },
      },
    },
    async () => capabilitiesOf(opts.mfa),
  );
}
