import type {
  AdminManualVerificationBody,
  AdminVerifyIdentityResponse,
  AdminVerifyPushResponse,
  AdminVerifyPushStatus,
  CreateBypassCodesResponse,
  PortalRole,
} from '@mfa-portal/shared';
import { AppError } from '../../../lib/errors.js';
import { VERIFY_FAILURE_CODES } from '../../verification/verification.service.js';
import type { RequestContext } from '../../common/request-context.js';
import { deviceDetails, rateLimited } from '../../common/answers.js';
import { adminAudited } from '../common/admin-audited.js';
import { actorOf, type Justification } from '../common/authorization.js';
import type { UsersServiceDeps } from './users-deps.js';

/**
 * What an administrator does to a user: check their identity (by hand, passcode or push), issue bypass
 * codes, remove or resynchronise a device, end a lockout, give the enrolment link. Every action is
 * audited with the role used, the reason and the ticket; a refusal passes on to the error handler.
 */

const iso = (d: Date) => d.toISOString();

export function userActions(deps: UsersServiceDeps) {
  const { mfa, audit, verification, directory, verifications } = deps;
  const clock = deps.now ?? (() => new Date());

  return {
    /** Records a verification of the caller made by hand (no device left), with the method and the ticket. */
    async verifyIdentityManually(ctx: RequestContext, role: PortalRole, upn: string, body: AdminManualVerificationBody) {
      if (!(await directory.find(upn)) && !(await mfa.getAccount(upn, clock()))) throw new AppError({ code: 'admin.user_not_found' });
      return verifications.recordManual(ctx, role, upn, body);
    },

    async verifyIdentity(
      ctx: RequestContext,
      role: PortalRole,
      upn: string,
      body: { deviceId?: string; code: string; ticket?: string },
    ): Promise<AdminVerifyIdentityResponse> {
      const now = clock();
      const action = 'admin.user.verify_identity';
      return adminAudited(
        audit,
        ctx,
        role,
        action,
        upn,
        body.ticket ? { ticket: body.ticket } : {},
        // The verification counts for this administrator's sign-in session only.
        { method: 'passcode', session: ctx.session, ...(body.deviceId ? { deviceId: body.deviceId } : {}) },
        async () => {
          const result = await verification.verify({
            upn,
            code: body.code,
            purpose: 'admin_verify_identity',
            methods: ['passcode'],
            ...(body.deviceId ? { deviceId: body.deviceId } : {}),
            actor: actorOf(ctx),
            requestId: ctx.requestId,
            clientAddress: ctx.clientAddress,
            now,
          });
          if (result.ok) return { verified: true, reason: null, deviceId: result.deviceId, checkedAt: iso(now) };
          if (result.reason === 'rate_limited') throw rateLimited(result.retryAfterSeconds);
          if (result.reason === 'not_provisioned') throw new AppError({ code: 'mfa.user_not_provisioned' });
          // A wrong, replayed or refused code is a result to show the helpdesk member, not an error.
          return { verified: false, reason: VERIFY_FAILURE_CODES[result.reason], deviceId: body.deviceId ?? null, checkedAt: iso(now) };
        },
        (r) => ({ verified: r.verified, ...(r.reason ? { result: r.reason } : {}) }),
        // A wrong code proves nothing: the check is answered, and recorded as the failure it is.
        (r) => (r.verified ? null : (r.reason ?? VERIFY_FAILURE_CODES.code_invalid)),
      );
    },

    /**
     * Identity check by push: a verification push to the user's phone. The answer carries the
     * confirmation code the helpdesk member reads to the caller (who sees it in the push), then
     * {@link verifyIdentityPushStatus} is polled. Start and result are both audited.
     */
    async verifyIdentityPush(
      ctx: RequestContext,
      role: PortalRole,
      upn: string,
      deviceId: string,
      ticket?: string,
    ): Promise<AdminVerifyPushResponse> {
      const now = clock();
      // Unwanted pushes tire people into approving one: the target's verification budgets bound them.
      const limited = await verification.throttle({
        upn,
        clientAddress: ctx.clientAddress,
        action: 'admin.user.verify_identity_push',
        actor: actorOf(ctx),
        requestId: ctx.requestId,
        details: { role, deviceId },
      });
      if (limited) throw rateLimited(limited.retryAfterSeconds);
      const started = await adminAudited(
        audit,
        ctx,
        role,
        'admin.user.verify_identity_push',
        upn,
        ticket ? { ticket } : {},
        { deviceId, method: 'push' },
        async () => deps.pushes.start({ upn, deviceId, purpose: 'admin_verify_identity', actorUpn: ctx.upn, session: ctx.session, now }),
        (r) => ({ txid: r.push.txid }),
      );
      return { ...started.push, confirmationCode: started.confirmationCode ?? '' };
    },

    /** The state of a verification push this administrator started; its result is audited once. */
    async verifyIdentityPushStatus(ctx: RequestContext, role: PortalRole, upn: string, txid: string): Promise<AdminVerifyPushStatus> {
      const polled = await deps.pushes.poll({
        upn,
        txid,
        purpose: 'admin_verify_identity',
        actorUpn: ctx.upn,
        session: ctx.session,
        now: clock(),
      });
      const verified = polled.push.state === 'approved';
      if (polled.justCompleted) {
        // The ticket given when the push was sent goes with its result (the verification it records).
        const started = await audit.search(
          { actor: ctx.upn, target: upn, action: 'admin.user.verify_identity_push', outcome: 'success' },
          { limit: 50 },
        );
        const ticket = started.events.find((e) => e.details?.txid === polled.push.txid)?.details?.ticket;
        await audit.append({
          actor: actorOf(ctx),
          target: upn,
          action: 'admin.user.verify_identity',
          outcome: verified ? 'success' : 'failure',
          reason: verified ? null : `push.${polled.push.state}`,
          requestId: ctx.requestId,
          clientAddress: ctx.clientAddress,
          details: {
            role,
            method: 'push',
            session: ctx.session,
            ...(typeof ticket === 'string' ? { ticket } : {}),
            deviceId: polled.push.deviceId,
            txid: polled.push.txid,
            verified,
            ...(polled.detail ? { detail: polled.detail } : {}),
          },
        });
      }
      return { ...polled.push, verified };
    },

    async createBypassCodes(
      ctx: RequestContext,
      role: PortalRole,
      upn: string,
      body: { count: number; validitySeconds: number; reuseCount: number; replaceExisting: boolean } & Justification,
    ): Promise<CreateBypassCodesResponse> {
      const now = clock();
      const action = 'admin.user.create_bypass_codes';
      const verified = await verifications.require(ctx, role, upn, action, body);
      const created = await adminAudited(
        audit,
        ctx,
        role,
        action,
        upn,
        body,
        {
          count: body.count,
          validitySeconds: body.validitySeconds,
          reuseCount: body.reuseCount,
          replaceExisting: body.replaceExisting,
          ...verified,
        },
        async () => {
          // Codes the person's policy would not let them use are not issued (nor beyond the most they may hold).
          await deps.factorPolicy?.assertMayBeIssuedBypassCodes(upn, { adding: body.count, replacing: body.replaceExisting });
          return mfa.createBypassCodes(
            upn,
            {
              count: body.count,
              validitySeconds: body.validitySeconds,
              reuseCount: body.reuseCount,
              replaceExisting: body.replaceExisting,
              createdBy: ctx.upn,
            },
            { now },
          );
        },
        (r) => ({ bypassIds: r.codes.map((c) => c.id), replaced: r.replaced }),
      );
      return { codes: created.codes.map((c) => ({ ...c, expiresAt: iso(c.expiresAt) })), replaced: created.replaced };
    },

    async deleteDevice(
      ctx: RequestContext,
      role: PortalRole,
      upn: string,
      deviceId: string,
      body: { confirmLastDevice: boolean } & Justification,
    ) {
      const verified = await verifications.require(ctx, role, upn, 'admin.user.delete_device', body);
      const device = await adminAudited(
        audit,
        ctx,
        role,
        'admin.user.delete_device',
        upn,
        body,
        { deviceId, confirmLastDevice: body.confirmLastDevice, ...verified },
        () => mfa.deleteDevice(upn, deviceId, { allowLast: body.confirmLastDevice }),
        deviceDetails,
      );
      return { device };
    },

    async resyncToken(ctx: RequestContext, role: PortalRole, upn: string, deviceId: string, body: { codes: string[] } & Justification) {
      const verified = await verifications.require(ctx, role, upn, 'admin.user.resync_token', body);
      const device = await adminAudited(audit, ctx, role, 'admin.user.resync_token', upn, body, { deviceId, ...verified }, () =>
        mfa.resyncHardwareToken(upn, deviceId, body.codes, { now: clock() }),
      );
      return { device };
    },

    async unlock(ctx: RequestContext, role: PortalRole, upn: string, body: Justification) {
      const account = await adminAudited(
        audit,
        ctx,
        role,
        'admin.user.unlock',
        upn,
        body,
        {},
        () => mfa.unlockUser(upn, { now: clock() }),
        (a) => ({ status: a.status }),
      );
      return { status: account.status, statusReason: account.statusReason };
    },

    async sendActivation(ctx: RequestContext, role: PortalRole, upn: string, body: Justification) {
      return adminAudited(
        audit,
        ctx,
        role,
        'admin.user.send_activation',
        upn,
        body,
        {},
        async () => {
          if (!(await mfa.getAccount(upn, clock()))) throw new AppError({ code: 'mfa.user_not_provisioned' });
          // No e-mail is sent: the administrator gives the user the portal's address, where they add a device.
          return { activationUrl: deps.portalUrl, emailSent: false as const };
        },
        () => ({ emailSent: false }),
      );
    },
  };
}
