import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUserText, type PortalRole } from '@mfa-portal/shared';
import { authenticate } from '../../../auth/authenticate.js';
import type { AdminGlobalAction, AdminUserAction } from '../../../auth/policy.js';
import type { TokenVerifier } from '../../../auth/token-verifier.js';
import { contextOf } from '../../common/request-context.js';
import { NOBODY, type AdminScope } from './admin-scope.js';
import type { AdminAuthorization, Justification } from './authorization.js';

/** The collaborators an administration routes plugin is given. */
export interface AdminRoutesOptions {
  verify: TokenVerifier;
  authorization: AdminAuthorization;
}

/** Ticket (and reason) as sent, before validation: recorded with a denied attempt when they are strings. */
function justificationOf(request: FastifyRequest): Justification {
  const body = request.body as { reason?: unknown; ticket?: unknown } | null | undefined;
  if (!body || typeof body !== 'object') return {};
  const text = (v: unknown, max: number) =>
    typeof v === 'string' && v.trim() !== '' && isUserText(v) ? v.trim().slice(0, max) : undefined;
  const ticket = text(body.ticket, 64);
  return ticket ? { ticket } : {};
}

/**
 * What every administration routes plugin (`<basePath>api/admin/...`) installs: the bearer token
 * (onRequest), `cache-control: no-store`, and the policy decision hooks (preValidation, so a denied
 * caller learns nothing about the input and nothing is read or changed; the denial is audited).
 * `roleOf` is the role the decision allowed the request with, `scopeOf` whom the caller reaches (search
 * and reports are limited to it; a route on one user has checked the user against it already).
 */
export function installAdminHooks(app: FastifyInstance, opts: AdminRoutesOptions) {
  const roles = new WeakMap<FastifyRequest, PortalRole>();
  const scopes = new WeakMap<FastifyRequest, AdminScope>();
  app.addHook('onRequest', authenticate(opts.verify));
  // Before anything else is read: no second factor in the token, no administration.
  app.addHook('onRequest', async (request) => opts.authorization.requireSecondFactor(contextOf(request)));
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  // The token import accepts the CSV file itself (and every admin route reads text/csv the same way).
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  const onUser = (action: AdminUserAction) => async (request: FastifyRequest) => {
    const upn = String((request.params as { upn?: unknown }).upn ?? '')
      .trim()
      .toLowerCase();
    const { role, scope } = await opts.authorization.authorizeUser(contextOf(request), upn, action, justificationOf(request));
    roles.set(request, role);
    scopes.set(request, scope);
  };
  const global = (action: AdminGlobalAction) => async (request: FastifyRequest) => {
    const { role, scope } = await opts.authorization.authorizeGlobal(contextOf(request), action, justificationOf(request));
    roles.set(request, role);
    scopes.set(request, scope);
  };
  const roleOf = (request: FastifyRequest): PortalRole => roles.get(request) ?? 'staff';
  // No decision recorded (a route without a hook): nobody, never everyone.
  const scopeOf = (request: FastifyRequest): AdminScope => scopes.get(request) ?? NOBODY;
  return { onUser, global, roleOf, scopeOf };
}
