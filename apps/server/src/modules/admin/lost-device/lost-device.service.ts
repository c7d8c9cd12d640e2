import {
  LOST_DEVICE_MAX_VALIDITY_SECONDS,
  type AdminLostDeviceProgress,
  type AdminLostDeviceResponse,
  type PortalRole,
} from '@mfa-portal/shared';
import { AppError } from '../../../lib/errors.js';
import type { MfaProvider } from '../../../mfa/port.js';
import type { ChainedAuditEvent } from '../../audit/audit-chain.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { SessionsService } from '../../sessions/sessions.service.js';
import { deviceDetails } from '../../common/answers.js';
import type { RequestContext } from '../../common/request-context.js';
import { adminAudited } from '../common/admin-audited.js';
import type { Justification } from '../common/authorization.js';
import type { IssuedCodesGate } from '../../common/self-service.js';
import { VERIFY_IDENTITY_ACTION, type IdentityVerifications } from '../common/identity-verification.js';

/**
 * The lost-device wizard (`/api/admin/users/:upn/lost-device`): after the identity check, remove the
 * lost device and issue one single-use bypass code valid at most 24 hours; and where the wizard stands,
 * derived from the audit log (every step is an audit event) and the user's devices.
 */

export interface LostDeviceServiceDeps {
  mfa: MfaProvider;
  audit: AuditService;
  /** Where staff sign in and enrol (the enrolment link). */
  portalUrl: string;
  /** "Sign out everywhere": the user's access tokens are refused at once. */
  sessions: Pick<SessionsService, 'revokeAll'>;
  /** "Verify, then issue": the identity verification the wizard's server step needs. */
  verifications: IdentityVerifications;
  /** The person's factor policy: where it lets no bypass code be used, the wizard changes nothing. */
  factorPolicy?: IssuedCodesGate;
  now?: () => Date;
}

const iso = (d: Date) => d.toISOString();

export function createLostDeviceService(deps: LostDeviceServiceDeps) {
  const { mfa, audit } = deps;
  const clock = deps.now ?? (() => new Date());

  return {
    /**
     * The wizard's server step (after verify-identity): removes the lost device, then issues one
     * single-use bypass code valid at most 24 h; the user then enrols a new device and tests it.
     * Each step is audited; run again after an interruption, it skips a removal already done.
     */
    async lostDevice(
      ctx: RequestContext,
      role: PortalRole,
      upn: string,
      body: { deviceId: string; confirmLastDevice: boolean; validitySeconds: number } & Justification,
    ): Promise<AdminLostDeviceResponse> {
      const now = clock();
      const verified = await deps.verifications.require(ctx, role, upn, 'admin.user.lost_device.remove_device', body);
      const issue = { count: 1, validitySeconds: body.validitySeconds, reuseCount: 1, ...verified };
      const issueAudited = <T>(fn: () => Promise<T>, successDetails?: (r: T) => Record<string, unknown>) =>
        adminAudited(audit, ctx, role, 'admin.user.lost_device.issue_bypass_code', upn, body, issue, fn, successDetails);
      // Asked before the removal: a person whose policy lets no bypass code be used keeps their device
      // (the refusal is recorded) and is given an enrolment pass instead.
      try {
        await deps.factorPolicy?.assertMayBeIssuedBypassCodes(upn);
      } catch (err) {
        await issueAudited(() => Promise.reject(err));
      }
      const devices = await mfa.listDevices(upn);
      let deviceRemoved = false;
      if (devices.some((d) => d.id === body.deviceId)) {
        await adminAudited(
          audit,
          ctx,
          role,
          'admin.user.lost_device.remove_device',
          upn,
          body,
          // The devices kept: any other device is new (Duo gives no date of addition for a device).
          {
            deviceId: body.deviceId,
            confirmLastDevice: body.confirmLastDevice,
            keptDeviceIds: devices.filter((d) => d.id !== body.deviceId).map((d) => d.id),
            ...verified,
          },
          () => mfa.deleteDevice(upn, body.deviceId, { allowLast: body.confirmLastDevice }),
          deviceDetails,
        );
        deviceRemoved = true;
      } else {
        // Resuming: only a device this wizard already removed for this user may be missing.
        const done = await audit.search(
          { target: upn, action: 'admin.user.lost_device.remove_device', outcome: 'success' },
          { limit: 100 },
        );
        if (!done.events.some((e) => e.details?.deviceId === body.deviceId)) throw new AppError({ code: 'device.not_found' });
      }
      const created = await issueAudited(
        () =>
          mfa.createBypassCodes(
            upn,
            { count: 1, validitySeconds: body.validitySeconds, reuseCount: 1, replaceExisting: false, createdBy: ctx.upn },
            { now },
          ),
        (r) => ({ bypassIds: r.codes.map((c) => c.id) }),
      );
      const code = created.codes[0]!;
      return {
        deviceRemoved,
        bypassCode: { id: code.id, code: code.code, expiresAt: iso(code.expiresAt), usesLeft: 1 },
        enrolmentUrl: deps.portalUrl,
      };
    },

    /**
     * "Sign out everywhere" (a lost or stolen device may hold a signed-in portal): every access token of
     * the user issued until now is refused by the API, on every instance. Audited with the reason.
     */
    async signOutEverywhere(ctx: RequestContext, role: PortalRole, upn: string, body: Justification): Promise<{ signedOutAt: string }> {
      const now = clock();
      const target = upn.toLowerCase();
      await adminAudited(audit, ctx, role, 'admin.user.sign_out_everywhere', target, body, {}, () =>
        deps.sessions.revokeAll(target, 'sign_out_everywhere', { now }),
      );
      return { signedOutAt: iso(now) };
    },

    /**
     * Where the lost-device wizard stands for this user, from the audit log (every step is an audit
     * event) and the user's devices: the caller's recent identity check, then the latest case of the
     * last 24 hours: the removal, the newest code issued after it (and whether it is still unused), the
     * devices added since, and whether a code of one of them has been accepted since (an identity
     * check, a device test or a sign-in). Read-only; not audited (reading a user's page is not either).
     */
    async lostDeviceProgress(ctx: RequestContext, upn: string): Promise<AdminLostDeviceProgress> {
      const now = clock();
      const target = upn.toLowerCase();
      const at = (e: ChainedAuditEvent) => new Date(e.occurredAt);
      const text = (v: unknown) => (typeof v === 'string' ? v : null);
      const [steps, checks] = await Promise.all([
        audit.search(
          {
            target,
            action: 'admin.user.lost_device.*',
            outcome: 'success',
            from: new Date(now.getTime() - LOST_DEVICE_MAX_VALIDITY_SECONDS * 1000),
          },
          { limit: 100 },
        ),
        audit.search(
          {
            actor: ctx.upn,
            target,
            action: VERIFY_IDENTITY_ACTION,
            outcome: 'success',
            from: new Date(now.getTime() - deps.verifications.windowSeconds * 1000),
          },
          { limit: 20 },
        ),
      ]);
      // Newest first: the first verified check, the latest removal, the newest code issued after it.
      const check = checks.events.find((e) => e.details?.verified === true && e.details.session === ctx.session);
      const identityCheck = check ? { checkedAt: iso(at(check)), deviceId: text(check.details?.deviceId) } : null;
      const removal = steps.events.find((e) => e.action === 'admin.user.lost_device.remove_device');
      if (!removal) return { identityCheck, case: null };
      const issue = steps.events.find((e) => e.action === 'admin.user.lost_device.issue_bypass_code' && Number(e.id) > Number(removal.id));
      const [devices, codes] = await Promise.all([mfa.listDevices(upn), issue ? mfa.listBypassCodes(upn, { now }) : Promise.resolve([])]);
      const removedAt = at(removal);
      // New: not among the devices kept at the removal (when recorded), else added after it (builtin dates
      // its devices; Duo does not, its devices carry the user's creation date).
      const keptIds = Array.isArray(removal.details?.keptDeviceIds) ? new Set(removal.details.keptDeviceIds.map(String)) : null;
      const newDevices = devices.filter((d) => (keptIds ? !keptIds.has(d.id) : Date.parse(d.createdAt) > removedAt.getTime()));
      let tested: { deviceId: string; testedAt: string } | null = null;
      if (newDevices.length > 0) {
        const ids = new Set(newDevices.map((d) => d.id));
        const accepted = await audit.search({ target, action: 'mfa.verify', outcome: 'success', from: removedAt }, { limit: 100 });
        const hit = accepted.events.find((e) => ids.has(text(e.details?.deviceId) ?? ''));
        if (hit) tested = { deviceId: text(hit.details?.deviceId)!, testedAt: iso(at(hit)) };
      }
      const codeId = issue && Array.isArray(issue.details?.bypassIds) ? text(issue.details.bypassIds[0]) : null;
      const live = codeId ? codes.find((c) => c.id === codeId) : undefined;
      return {
        identityCheck,
        case: {
          startedAt: iso(removedAt),
          actorUpn: removal.actorUpn,
          reason: text(removal.details?.reason),
          ticket: text(removal.details?.ticket),
          removedDevice: {
            id: text(removal.details?.deviceId) ?? '',
            name: text(removal.details?.deviceName),
            kind: text(removal.details?.kind),
            removedAt: iso(removedAt),
          },
          bypassCode:
            issue && codeId
              ? { id: codeId, issuedAt: iso(at(issue)), expiresAt: live ? live.expiresAt : null, usesLeft: live ? live.usesLeft : 0 }
              : null,
          newDevices,
          tested,
        },
      };
    },
  };
}

export type LostDeviceService = ReturnType<typeof createLostDeviceService>;
