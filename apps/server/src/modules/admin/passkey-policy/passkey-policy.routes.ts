import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema, webauthnPolicyResponseSchema, webauthnPolicySchema } from '@mfa-portal/shared';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import type { WebauthnPolicyService } from '../../webauthn/webauthn-policy.service.js';

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

/** The Solution Administrator's WebAuthn policy, under `<basePath>api/admin/webauthn`. */
export async function passkeyPolicyRoutes(
  app: FastifyInstance,
  opts: AdminRoutesOptions & { policyService: WebauthnPolicyService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The same bearer-token, no-store and audited policy hooks as every other admin routes plugin.
  const { global } = installAdminHooks(app, opts);
  const manage = global('admin.webauthn.manage');

  r.get(
    '/policy',
    {
      preValidation: manage,
      schema: {
        tags: ['admin'],
        security: SECURITY,
        summary: 'The WebAuthn policy: allowed authenticator models, phishing-resistant step-up for protected accounts',
        response: { 200: webauthnPolicyResponseSchema, ...ERRORS },
      },
    },
    async () => opts.policyService.get(),
  );

  r.put(
    '/policy',
    {
      preValidation: manage,
      schema: {
        tags: ['admin'],
        security: SECURITY,
        summary: 'Change the WebAuthn policy (audited)',
        body: webauthnPolicySchema,
        response: { 200: webauthnPolicyResponseSchema, ...ERRORS },
      },
    },
    async (request) => {
      // The same request context as the self-service WebAuthn routes pass their service.
      const ctx = {
        upn: request.caller.upn,
        roles: request.caller.roles,
        requestId: request.id,
        clientAddress: request.ip ?? null,
        session: request.caller.session,
      };
      return opts.policyService.set({ upn: ctx.upn, roles: ctx.roles }, request.body, ctx);
    },
  );
}
