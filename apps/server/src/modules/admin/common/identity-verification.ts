import {
  ADMIN_VERIFICATION_METHODS,
  type AdminIdentityVerification,
  type AdminManualVerificationBody,
  type AdminVerificationMethod,
  type AdminVerificationState,
  type PortalRole,
} from '@mfa-portal/shared';
import { AppError } from '../../../lib/errors.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { RequestContext } from '../../common/request-context.js';
import { actorOf, type Justification } from './authorization.js';

/**
 * "Verify, then issue": a Helpdesk Administrator issues bypass codes, removes or resyncs a
 * device, runs the lost-device wizard or issues an enrolment pass for a user only after recording a
 * verification of that user's identity within the window. The record is the audit log itself: a
 * successful `admin.user.verify_identity` event (a right passcode, an approved push, or a check made
 * by hand with a method from a fixed list and a ticket) by this administrator, in this sign-in session,
 * about this user. A colleague's verification does not count, and neither does one the same
 * administrator made from another session (a second browser, another token). A Solution Administrator may act without one; the audit
 * event of the action then says `verification: 'skipped'`, and otherwise names the verification used.
 */

export const VERIFY_IDENTITY_ACTION = 'admin.user.verify_identity';

export interface IdentityVerificationsDeps {
  audit: AuditService;
  windowSeconds: number;
  now?: () => Date;
  /** When the administrator's sessions were last ended (sign-out, a lock): older verifications do not count. */
  revokedBefore?: (upn: string) => Promise<Date | null>;
}

const METHODS: ReadonlySet<string> = new Set(ADMIN_VERIFICATION_METHODS);
const iso = (d: Date) => d.toISOString();

export function createIdentityVerifications(deps: IdentityVerificationsDeps) {
  const { audit, windowSeconds } = deps;
  const clock = deps.now ?? (() => new Date());

  /** The caller's latest successful verification of the user within the window, with its event id. */
  async function latest(ctx: RequestContext, upn: string, now: Date): Promise<(AdminIdentityVerification & { eventId: string }) | null> {
    const windowStart = new Date(now.getTime() - windowSeconds * 1000);
    const ended = (await deps.revokedBefore?.(ctx.upn)) ?? null;
    const page = await audit.search(
      {
        actor: ctx.upn,
        target: upn.toLowerCase(),
        action: VERIFY_IDENTITY_ACTION,
        outcome: 'success',
        from: ended && ended > windowStart ? ended : windowStart,
      },
      { limit: 50 },
    );
    // A wrong passcode proves nothing: recorded as a failure now, and before that as a success with `verified: false`.
    const event = page.events.find((e) => e.details?.verified === true && e.details.session === ctx.session);
    if (!event) return null;
    const verifiedAt = new Date(event.occurredAt);
    const method = String(event.details?.method ?? 'passcode');
    const ticket = event.details?.ticket;
    return {
      eventId: String(event.id),
      method: (METHODS.has(method) ? method : 'passcode') as AdminVerificationMethod,
      ticket: typeof ticket === 'string' ? ticket : null,
      verifiedAt: iso(verifiedAt),
      expiresAt: iso(new Date(verifiedAt.getTime() + windowSeconds * 1000)),
    };
  }

  /** Where the caller stands with this user (shown on the user's page). */
  async function state(ctx: RequestContext, role: PortalRole, upn: string): Promise<AdminVerificationState> {
    const found = await latest(ctx, upn, clock());
    const current = found ? { method: found.method, ticket: found.ticket, verifiedAt: found.verifiedAt, expiresAt: found.expiresAt } : null;
    return { required: role !== 'solution_admin', windowSeconds, current };
  }

  return {
    windowSeconds,
    state,

    /**
     * Before an action that needs a verification: the audit details naming the verification in force
     * (or `verification: 'skipped'` for a Solution Administrator without one). Without one, a
     * Helpdesk Administrator's attempt is audited as refused and answered 403 admin.verification_required.
     */
    async require(
      ctx: RequestContext,
      role: PortalRole,
      upn: string,
      action: string,
      j: Justification = {},
    ): Promise<Record<string, unknown>> {
      const found = await latest(ctx, upn, clock());
      if (found) {
        return {
          verification: { method: found.method, ticket: found.ticket, verifiedAt: found.verifiedAt, eventId: found.eventId },
        };
      }
      if (role === 'solution_admin') return { verification: 'skipped' };
      await audit.append({
        actor: actorOf(ctx),
        target: upn.toLowerCase(),
        action,
        outcome: 'failure',
        reason: 'admin.verification_required',
        requestId: ctx.requestId,
        clientAddress: ctx.clientAddress,
        details: { role, verification: 'missing', ...(j.ticket ? { ticket: j.ticket } : {}) },
      });
      throw new AppError({
        code: 'admin.verification_required',
        details: { windowSeconds, verifyWith: ['verify-identity', 'verify-identity/push', 'verify-identity/manual'] },
      });
    },

    /** Records a verification made by hand (no device left): the method, the ticket and an optional note. */
    async recordManual(
      ctx: RequestContext,
      role: PortalRole,
      upn: string,
      body: AdminManualVerificationBody,
    ): Promise<AdminVerificationState> {
      await audit.append({
        actor: actorOf(ctx),
        target: upn.toLowerCase(),
        action: VERIFY_IDENTITY_ACTION,
        outcome: 'success',
        reason: null,
        requestId: ctx.requestId,
        clientAddress: ctx.clientAddress,
        details: {
          role,
          method: body.method,
          ticket: body.ticket,
          ...(body.note ? { note: body.note } : {}),
          verified: true,
          session: ctx.session,
        },
      });
      return state(ctx, role, upn);
    },
  };
}

export type IdentityVerifications = ReturnType<typeof createIdentityVerifications>;
