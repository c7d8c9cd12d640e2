import { isUserText, upnSchema, type PortalRole } from '@mfa-portal/shared';
import type { Actor, AdminGlobalAction, AdminUserAction, Decision, Policy } from '../../../auth/policy.js';
import { AppError } from '../../../lib/errors.js';
import { addRequestAuditDetails } from '../../../lib/request-meta.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { RequestContext } from '../../common/request-context.js';
import type { DirectoryRepository, DirectoryUser } from '../../directory/directory.repository.js';
import { EVERYONE, type AdminScope, type AdminScopes } from './admin-scope.js';

/**
 * Who may do what in the administration API (`/api/admin/...`), shared by its modules.
 * Routes authorise first (a denial is audited and answered 403 before anything is read or changed);
 * every admin change is audited with the actor, the role used, the reason and the ticket.
 *
 * Administrative units are applied here too, once for every route: a helpdesk member limited to units
 * reaches only their people (see admin-scope.ts). Anyone else is answered exactly as a person who does
 * not exist (404 `admin.user_not_found`, the same body), so the scope never tells who exists outside
 * it; the attempt is audited. An allowed action's audit events name the unit that allowed it.
 */

/** Reason and ticket of a change (recorded, never interpreted). */
export interface Justification {
  reason?: string;
  ticket?: string;
}

export const actorOf = (ctx: RequestContext): Actor => ({ upn: ctx.upn, roles: ctx.roles });

export interface AdminAuthorizationDeps {
  audit: AuditService;
  directory: DirectoryRepository;
  policy: Policy;
  /** Whether the token's `amr` shows a second factor (auth/second-factor.ts); absent: not checked. */
  hasSecondFactor?: (amr: readonly string[]) => boolean;
  /** Administrative units; absent: every administrator reaches everyone. */
  scopes?: AdminScopes;
}

/** What a helpdesk member limited to units may read beyond their people one by one: the reports, of their units. */
const UNIT_READS: ReadonlySet<AdminGlobalAction> = new Set(['admin.reports.read']);

export function createAdminAuthorization(deps: AdminAuthorizationDeps) {
  const { audit, directory, policy } = deps;

  /** Audits a denial; returns the 403 to throw. */
  async function denied(
    ctx: RequestContext,
    action: string,
    target: string | null,
    decision: Extract<Decision, { allow: false }>,
    j: Justification,
  ): Promise<AppError> {
    await audit.append({
      actor: actorOf(ctx),
      target,
      action,
      outcome: 'failure',
      reason: 'auth.forbidden',
      requestId: ctx.requestId,
      clientAddress: ctx.clientAddress,
      details: { role: decision.role, denyReason: decision.reason, ...(j.ticket ? { ticket: j.ticket } : {}) },
    });
    return new AppError({ code: 'auth.forbidden', details: { reason: decision.reason } });
  }

  /** Audits an attempt on a person outside the caller's units; returns the "not found" to throw. */
  async function outsideScope(ctx: RequestContext, action: string, target: string, scope: AdminScope, j: Justification): Promise<AppError> {
    await audit.append({
      actor: actorOf(ctx),
      target,
      action,
      outcome: 'failure',
      reason: 'admin.user_not_found',
      requestId: ctx.requestId,
      clientAddress: ctx.clientAddress,
      details: {
        role: policy.roleOf(actorOf(ctx)),
        denyReason: 'outside_units',
        units: scope.kind === 'units' ? scope.units.map((u) => u.name) : [],
        ...(j.ticket ? { ticket: j.ticket } : {}),
      },
    });
    // Exactly what a person who does not exist answers: no details.
    return new AppError({ code: 'admin.user_not_found' });
  }

  return {
    denied,

    /**
     * Administration needs a second factor in the token itself: a password alone never opens it, whatever
     * the roles. Staff are left to the policy (they are refused anyway, as not administrators). The
     * refusal is audited and answered 403 `auth.mfa_required`.
     */
    async requireSecondFactor(ctx: RequestContext): Promise<void> {
      if (!deps.hasSecondFactor || deps.hasSecondFactor(ctx.amr)) return;
      const role = policy.roleOf(actorOf(ctx));
      if (role === 'staff') return;
      await audit.append({
        actor: actorOf(ctx),
        target: null,
        action: 'admin.access',
        outcome: 'failure',
        reason: 'auth.mfa_required',
        requestId: ctx.requestId,
        clientAddress: ctx.clientAddress,
        details: { role, amr: [...ctx.amr] },
      });
      throw new AppError({
        code: 'auth.mfa_required',
        details: { reason: 'Add a device on your own page first, then sign in again with it.' },
        headers: { 'www-authenticate': 'Bearer error="insufficient_user_authentication", error_description="a second factor is required"' },
      });
    },

    /** Whether the user's account is protected (roles never seen: protected, fail closed). */
    protectionOf(user: DirectoryUser | null | undefined) {
      if (!user || user.roles === null) return { protected: true, reason: 'roles_unknown' as const };
      return policy.isProtected(user.roles) ? { protected: true, reason: 'restricted_role' as const } : { protected: false, reason: null };
    },

    /**
     * The policy decision for an action on a user; a denial is audited and thrown as a 403. For a
     * helpdesk member limited to units, a person outside them is first answered as not found.
     */
    async authorizeUser(
      ctx: RequestContext,
      upn: string,
      action: AdminUserAction,
      j: Justification = {},
    ): Promise<{ role: PortalRole; scope: AdminScope }> {
      // Who may act at all is decided before the path is even read: staff get 403 whatever the {upn}.
      if (policy.roleOf(actorOf(ctx)) === 'staff') {
        const decision = policy.onUser(actorOf(ctx), { upn, roles: null }, action);
        if (!decision.allow) throw await denied(ctx, action, isUserText(upn) ? upn.toLowerCase() : null, decision, j);
      }
      // Then the {upn} itself, before any lookup: a 400 naming the field.
      const parsed = upnSchema.safeParse(upn);
      if (!parsed.success) {
        throw new AppError({
          code: 'request.invalid',
          details: { field: 'upn', reason: parsed.error.issues[0]?.message ?? 'is not valid' },
        });
      }
      const scope = deps.scopes ? await deps.scopes.of(actorOf(ctx)) : EVERYONE;
      // One's own account is refused as ever (below); anyone else outside the units is "not found".
      const own = upn.toLowerCase() === ctx.upn.toLowerCase();
      const allowing = own || !deps.scopes ? null : await deps.scopes.unitsAllowing(scope, upn);
      if (allowing && allowing.length === 0) throw await outsideScope(ctx, action, upn.toLowerCase(), scope, j);
      const target = (await directory.find(upn)) ?? null;
      const decision = policy.onUser(actorOf(ctx), { upn, roles: target?.roles ?? null }, action);
      if (!decision.allow) throw await denied(ctx, action, upn.toLowerCase(), decision, j);
      const unit = allowing?.[0];
      if (unit) addRequestAuditDetails(ctx.upn, { unit: { id: unit.id, name: unit.name } });
      return { role: decision.role, scope };
    },

    /**
     * The policy decision for an action not about one user, with the caller's scope (what search and
     * the reports are limited to). A helpdesk member limited to units also reads their units' reports.
     */
    async authorizeGlobal(
      ctx: RequestContext,
      action: AdminGlobalAction,
      j: Justification = {},
    ): Promise<{ role: PortalRole; scope: AdminScope }> {
      let decision = policy.global(actorOf(ctx), action);
      const scope = deps.scopes && decision.role !== 'staff' ? await deps.scopes.of(actorOf(ctx)) : EVERYONE;
      if (!decision.allow && UNIT_READS.has(action) && decision.role === 'helpdesk' && scope.kind === 'units' && scope.units.length > 0)
        decision = { allow: true, role: decision.role };
      if (!decision.allow) throw await denied(ctx, action, null, decision, j);
      return { role: decision.role, scope };
    },
  };
}

export type AdminAuthorization = ReturnType<typeof createAdminAuthorization>;
