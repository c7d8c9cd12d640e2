import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate } from '../../auth/authenticate.js';
import type { Policy, SelfAction } from '../../auth/policy.js';
import type { TokenVerifier } from '../../auth/token-verifier.js';
import { AppError } from '../../lib/errors.js';
import type { AuditService } from '../audit/audit.service.js';

/**
 * What every self-service routes plugin (`<basePath>api/me/...`) installs: a bearer token on every
 * route (checked before any validation) and `cache-control: no-store` on every answer (enrolment
 * secrets and bypass codes are shown once).
 */
export function installSelfServiceHooks(app: FastifyInstance, verify: TokenVerifier): void {
  app.addHook('onRequest', authenticate(verify));
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
}

/**
 * preValidation: the policy's decision on a self-service change (a protected-account holder may not
 * change their own MFA nor mint their own bypass codes). A denial is audited; nothing else runs.
 * One exception, `protectedFirstDevice`: a protected account with no device adds its first one with an
 * enrolment pass redeemed in this session (the only way its first administrators ever get one).
 */
export function selfPolicy(
  policy: Policy,
  audit: AuditService,
  protectedFirstDevice?: (who: { upn: string; session: string }) => Promise<boolean>,
) {
  return (action: SelfAction) => async (request: FastifyRequest) => {
    const decision = policy.self({ upn: request.caller.upn, roles: request.caller.roles }, action);
    if (decision.allow) return;
    if (
      action === 'me.change_mfa' &&
      decision.reason === 'protected_self_service' &&
      protectedFirstDevice &&
      (await protectedFirstDevice({ upn: request.caller.upn, session: request.caller.session }))
    )
      return;
    await audit.append({
      actor: { upn: request.caller.upn, roles: request.caller.roles },
      target: request.caller.upn,
      action,
      outcome: 'failure',
      reason: 'auth.protected_account',
      requestId: request.id,
      clientAddress: request.ip ?? null,
      details: { role: decision.role, denyReason: decision.reason, route: request.routeOptions.url ?? null },
    });
    throw new AppError({ code: 'auth.protected_account', details: { reason: decision.reason } });
  };
}

/** The collaborators a self-service routes plugin is given. */
export interface SelfRoutesOptions {
  verify: TokenVerifier;
  policy: Policy;
  audit: AuditService;
  /** A protected account's first device, with a pass redeemed in this session (see {@link selfPolicy}). */
  protectedFirstDevice?: (who: { upn: string; session: string }) => Promise<boolean>;
}
