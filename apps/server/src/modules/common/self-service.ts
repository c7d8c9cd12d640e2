import type { FactorKind, PushTransaction } from '@mfa-portal/shared';
import { AppError } from '../../lib/errors.js';
import { MfaError, type MfaAccount, type MfaProvider } from '../../mfa/port.js';
import type { VerificationService } from '../verification/verification.service.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PushService } from '../push/push.service.js';
import { lockedOut, rateLimited } from './answers.js';
import { audited, type AuditedAction } from './audited.js';
import type { RequestContext } from './request-context.js';

/**
 * The rules every self-service module (`/api/me/...`) shares: the caller acts on their own account
 * only; the account must be provisioned and usable; sensitive changes need a fresh step-up; code
 * checks, text messages and pushes spend the verification budgets; every change and every failed
 * attempt is audited (never a secret or a code).
 */

/** What the shared checks need of the step-up records (modules/step-up/step-up.service.ts provides it). */
export interface StepUpCheck {
  readonly maxAgeSeconds: number;
  /** True when this sign-in session verified within the last `maxAgeSeconds` (another session's step-up does not count). */
  isFresh(who: { upn: string; session: string }, now?: Date): Promise<boolean>;
}

export interface SelfServiceDeps {
  mfa: MfaProvider;
  audit: AuditService;
  stepUp: StepUpCheck;
  verification: VerificationService;
  pushes: PushService;
  totpIssuer: string;
  now?: () => Date;
  /** First-device policy: asked before a first device is added without a step-up. */
  firstDevice?: FirstDeviceGate;
  /** The factor policy: asked before a device or bypass codes are added. */
  factorPolicy?: FactorPolicyGate;
}

export interface FactorPolicyGate {
  /**
   * Throws (403 `factor_policy.kind_not_allowed`, 409 `factor_policy.limit_reached`) when the person's
   * policy does not let them add `adding` (default 1) of this kind now; `replacing`: what they hold of
   * it goes in the same change.
   */
  assertMayEnrol(upn: string, kind: FactorKind, opts?: { adding?: number; replacing?: boolean }): Promise<void>;
}

/** The factor policy's word on bypass codes a service desk issues (used, not enrolled, by the person). */
export interface IssuedCodesGate {
  assertMayBeIssuedBypassCodes(upn: string, opts?: { adding?: number; replacing?: boolean }): Promise<void>;
}

export interface FirstDeviceGate {
  /** Throws (403 `enrolment.pass_required`) when the user may not add a first device now. */
  assertAllowed(who: { upn: string; session: string }, now: Date): Promise<void>;
}

/**
 * The guard before a change that adds a device: with a fresh step-up (or one `granted` earlier, e.g.
 * when a ceremony began) the user may add a device whatever they have; without one, the provider
 * accepts it only as the first device, and the first-device policy must allow that now (it throws
 * when not). Answers whether a device may be added when devices exist. No sign-in session (the
 * identity provider's own sign-in) means no step-up.
 */
export function firstDeviceGuard(stepUp: StepUpCheck, firstDevice: FirstDeviceGate | undefined) {
  return async function allowWhenDevicesExist(who: { upn: string; session: string }, now: Date, granted = false): Promise<boolean> {
    const allowed = granted || (who.session ? await stepUp.isFresh(who, now) : false);
    if (!allowed) await firstDevice?.assertAllowed(who, now);
    return allowed;
  };
}

/** Audits the end of a push (once: the poll that saw it answered). */
export async function auditPushResult(
  audit: AuditService,
  ctx: RequestContext,
  action: string,
  push: PushTransaction,
  detail: string | null,
): Promise<void> {
  await audit.append({
    actor: { upn: ctx.upn, roles: ctx.roles },
    target: ctx.upn,
    action,
    outcome: push.state === 'approved' ? 'success' : 'failure',
    reason: push.state === 'approved' ? null : `push.${push.state}`,
    requestId: ctx.requestId,
    clientAddress: ctx.clientAddress,
    details: { deviceId: push.deviceId, txid: push.txid, state: push.state, ...(detail ? { detail } : {}) },
  });
}

/** The shared self-service checks, bound to the collaborators. */
export function selfService(deps: SelfServiceDeps) {
  const { mfa, audit, stepUp, verification } = deps;
  const clock = deps.now ?? (() => new Date());

  /** A provisioned, usable account: 404 when not provisioned, 403 when disabled or locked out. */
  async function usableAccount(ctx: RequestContext, now: Date): Promise<MfaAccount> {
    const account = await mfa.getAccount(ctx.upn, now);
    if (!account) throw new AppError({ code: 'mfa.user_not_provisioned' });
    if (account.status === 'disabled')
      throw new AppError({ code: 'mfa.user_disabled', ...(account.statusReason ? { details: { reason: account.statusReason } } : {}) });
    if (account.status === 'locked_out')
      throw lockedOut(account.statusReason, account.lockedUntil ? Math.ceil((account.lockedUntil.getTime() - now.getTime()) / 1000) : null);
    return account;
  }

  async function requireStepUp(ctx: RequestContext, now: Date): Promise<void> {
    if (!(await stepUp.isFresh(ctx, now)))
      throw new AppError({ code: 'auth.step_up_required', details: { maxAgeSeconds: stepUp.maxAgeSeconds } });
  }

  /** One attempt from the verification budgets (per user, per address); 429 with Retry-After when spent. */
  async function throttle(ctx: RequestContext, action: string, details: Record<string, unknown>): Promise<void> {
    const limited = await verification.throttle({
      upn: ctx.upn,
      clientAddress: ctx.clientAddress,
      action,
      actor: { upn: ctx.upn, roles: ctx.roles },
      requestId: ctx.requestId,
      details,
    });
    if (limited) throw rateLimited(limited.retryAfterSeconds);
  }

  /** 409 `mfa.not_supported_by_provider` when the configured provider cannot do this: it is never imitated. */
  function requireCapability(capability: 'phones' | 'smsActivation' | 'push'): void {
    if (!mfa.capabilities[capability]) throw new MfaError('not_supported', { reason: `The ${mfa.name} MFA provider cannot do this.` });
  }

  /** A change to the caller's own account, audited (see {@link audited}). */
  function auditedSelf<T>(
    ctx: RequestContext,
    action: string,
    details: Record<string, unknown>,
    fn: () => Promise<T>,
    successDetails?: (result: T) => Record<string, unknown>,
  ): Promise<T> {
    const what: AuditedAction<T> = { action, target: ctx.upn, details };
    return audited(audit, ctx, successDetails ? { ...what, successDetails } : what, fn);
  }

  /** The factor policy's word on adding `kind` (whatever the client offered): refused before anything is added. */
  async function mayEnrol(ctx: RequestContext, kind: FactorKind, opts?: { adding?: number; replacing?: boolean }): Promise<void> {
    await deps.factorPolicy?.assertMayEnrol(ctx.upn, kind, opts);
  }

  return {
    clock,
    usableAccount,
    mayEnrol,
    requireStepUp,
    allowWhenDevicesExist: firstDeviceGuard(stepUp, deps.firstDevice),
    throttle,
    requireCapability,
    audited: auditedSelf,
  };
}

export type SelfService = ReturnType<typeof selfService>;

export { deviceDetails, iso, lockedOut, rateLimited, verificationError } from './answers.js';
