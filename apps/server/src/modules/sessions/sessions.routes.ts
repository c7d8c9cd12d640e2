import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuditService } from '../audit/audit.service.js';
import { audited } from '../common/audited.js';
import { contextOf } from '../common/request-context.js';
import { COMMON_ERRORS, ME_TAGS, SECURITY, noContent } from '../common/route-schemas.js';
import { installSelfServiceHooks } from '../common/self-routes.js';
import type { TokenVerifier } from '../../auth/token-verifier.js';
import type { SessionsService } from './sessions.service.js';

/**
 * `POST <basePath>api/me/sign-out`: the SPA calls it before the identity provider's sign-out, and every
 * access token of the caller issued until now is refused from then on, on every instance. Audited.
 */
export async function sessionRoutes(
  app: FastifyInstance,
  opts: { verify: TokenVerifier; audit: AuditService; sessions: SessionsService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  installSelfServiceHooks(app, opts.verify);

  r.post(
    '/sign-out',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Sign out: revoke my access tokens',
        description: 'Every access token of the caller issued until now is refused afterwards (401 auth.token_expired).',
        response: { 204: noContent, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      await audited(opts.audit, ctx, { action: 'session.sign_out', target: ctx.upn, details: {} }, () =>
        opts.sessions.revokeAll(ctx.upn, 'sign_out'),
      );
      return reply.code(204).send(null);
    },
  );
}
