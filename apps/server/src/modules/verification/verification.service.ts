import type { ErrorCode, FactorKind } from '@mfa-portal/shared';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import type { AsyncRateLimiter } from '../../lib/rate-limit/rate-limit-store.js';
import { failureCode } from '../common/error-translator.js';
import { methodNotAllowed, type UsableFactors } from '../factor-policy/factor-policy.service.js';
import { LOCKOUT_REASON, MfaError, type MfaProvider, type VerifyFailure, type VerifyMethod, type VerifyOutcome } from '../../mfa/port.js';

/**
 * Verification of a second factor on behalf of a user: the one entry point for step-up, device tests
 * and (embedded identity provider) sign-in. It rate limits per user and per client address (the app
 * keeps the budgets in the database, shared by every instance), lets the provider check the code and
 * apply its lockout, and audits every attempt, refused ones included. Never a code in the audit log.
 */

/** `admin_verify_identity`: a helpdesk member checks a caller's passcode before acting for them. */
export type VerificationPurpose = 'step_up' | 'device_test' | 'sign_in' | 'admin_verify_identity';

export interface VerificationRequest {
  upn: string;
  code: string;
  purpose: VerificationPurpose;
  /** Restrict to passcodes or bypass codes (default: both). */
  methods?: readonly VerifyMethod[];
  /** Restrict to one device of the user. */
  deviceId?: string;
  /** Who is verifying (the user themself at sign-in and in the portal). */
  actor: AuditActor | null;
  requestId?: string | null;
  clientAddress?: string | null;
  now?: Date;
}

export type RateLimited = { ok: false; reason: 'rate_limited'; retryAfterSeconds: number; justLocked: false; statusReason: null };
/** The person's factor policy does not let them confirm it is them this way (`statusReason`: what they may use). */
export type NotAllowed = { ok: false; reason: 'not_allowed'; retryAfterSeconds: null; justLocked: false; statusReason: string | null };
export type VerificationResult = VerifyOutcome | RateLimited | NotAllowed;

export interface ThrottleRequest {
  upn: string;
  clientAddress?: string | null;
  /** Audit action of the refused attempt (e.g. `device.claim_token`). */
  action: string;
  actor: AuditActor | null;
  requestId?: string | null;
  details?: Record<string, unknown>;
}

export interface VerificationService {
  verify(request: VerificationRequest): Promise<VerificationResult>;
  /** Takes one attempt from the user's and the address's budgets; audits and reports a refusal. */
  throttle(request: ThrottleRequest): Promise<RateLimited | null>;
}

export interface VerificationLimiters {
  perUser: AsyncRateLimiter;
  perAddress: AsyncRateLimiter;
}

export interface VerificationLimits {
  perUser: number;
  perAddress: number;
  windowSeconds: number;
}

/** The error code that names each failure (also the audit reason). */
export const VERIFY_FAILURE_CODES: Record<VerifyFailure | 'rate_limited' | 'not_allowed', ErrorCode> = {
  code_invalid: 'mfa.code_invalid',
  code_replayed: 'mfa.code_replayed',
  user_locked_out: 'mfa.user_locked_out',
  user_disabled: 'mfa.user_disabled',
  not_provisioned: 'mfa.user_not_provisioned',
  no_factor: 'mfa.no_factor',
  rate_limited: 'request.rate_limited',
  not_allowed: 'factor_policy.method_not_allowed',
};

/** Signing in and stepping up confirm it is the person: there the factor policy's use rule applies. */
const confirmsIdentity = (purpose: VerificationPurpose) => purpose === 'sign_in' || purpose === 'step_up';

type UsableFor = Pick<UsableFactors, 'passcode' | 'bypass' | 'deviceUsable' | 'policy' | 'devices'>;

/**
 * Whether the policy lets the person try this way at all: bypass codes where they may be used; passcodes
 * where some kind that gives them may be used and, if they hold passcode devices, one of those may be.
 * Someone holding no passcode device at all is left to the provider's own answer (no factor).
 */
function mayTry(usable: UsableFor, method: VerifyMethod): boolean {
  if (method === 'bypass') return usable.bypass;
  const kinds: readonly FactorKind[] = ['portal_authenticator', 'phone', 'authenticator_app', 'hardware_token'];
  if (!kinds.some((k) => usable.policy.use.has(k))) return false;
  const held = usable.devices.filter((h) => h.device.capabilities.includes('passcode'));
  return held.length === 0 || held.some((h) => h.usable);
}

/** A code matched a device the policy does not let the person use: undone (rolled back), then refused. */
class NotUsable extends Error {
  constructor(readonly deviceId: string) {
    super('the matching device may not be used');
  }
}

export function createVerificationService(deps: {
  mfa: MfaProvider;
  audit: AuditService;
  /** Where the budgets live (the app keeps them in the database). */
  limiters: VerificationLimiters;
  /** Runs with the lockout's audit event when failures lock an account: ends the user's sessions. */
  onLockout?: (upn: string) => Promise<unknown>;
  /** What the person's factor policy lets them use now (sign-in and step-up); absent: anything. */
  factorUse?: (upn: string) => Promise<UsableFor>;
}): VerificationService {
  const { perUser, perAddress } = deps.limiters;

  const service: VerificationService = {
    async throttle(request) {
      const user = await perUser.consume(`user:${request.upn.toLowerCase()}`);
      const address = user.allowed && request.clientAddress ? await perAddress.consume(`addr:${request.clientAddress}`) : user;
      if (user.allowed && address.allowed) return null;
      const retryAfterSeconds = Math.max(user.retryAfterSeconds, address.retryAfterSeconds);
      await deps.audit.append({
        actor: request.actor,
        target: request.upn.toLowerCase(),
        action: request.action,
        outcome: 'failure',
        reason: VERIFY_FAILURE_CODES.rate_limited,
        requestId: request.requestId ?? null,
        clientAddress: request.clientAddress ?? null,
        details: { ...request.details, limitedBy: user.allowed ? 'address' : 'user', retryAfterSeconds },
      });
      return { ok: false, reason: 'rate_limited', retryAfterSeconds, justLocked: false, statusReason: null };
    },

    async verify(request) {
      const upn = request.upn.toLowerCase();
      const base = {
        purpose: request.purpose,
        ...(request.deviceId ? { deviceId: request.deviceId } : {}),
        ...(request.methods ? { methods: [...request.methods] } : {}),
      };
      const limited = await service.throttle({
        upn,
        clientAddress: request.clientAddress,
        action: 'mfa.verify',
        actor: request.actor,
        requestId: request.requestId,
        details: base,
      });
      if (limited) return limited;

      const common = {
        actor: request.actor,
        target: upn,
        requestId: request.requestId ?? null,
        clientAddress: request.clientAddress ?? null,
      };
      // The factor policy: only the ways the person may use are checked at all (bypass codes, passcodes
      // of a usable device); a code of a device they may not use is refused below.
      const usable = confirmsIdentity(request.purpose) && deps.factorUse ? await deps.factorUse(upn) : null;
      const methods = (request.methods ?? (['passcode', 'bypass'] as const)).filter((m) => !usable || mayTry(usable, m));
      const notAllowed = async (extra: Record<string, unknown> = {}): Promise<NotAllowed> => {
        const refusal = methodNotAllowed(usable!.policy);
        await deps.audit.append({
          ...common,
          action: 'mfa.verify',
          outcome: 'failure',
          reason: VERIFY_FAILURE_CODES.not_allowed,
          details: { ...base, ...extra },
        });
        const reason = refusal.details?.reason;
        return {
          ok: false,
          reason: 'not_allowed',
          retryAfterSeconds: null,
          justLocked: false,
          statusReason: typeof reason === 'string' ? reason : null,
        };
      };
      if (usable && methods.length === 0) return notAllowed();
      // The check (a code used, a failure counted, a lockout) and its audit events: one transaction.
      // A refusal before any code was checked is audited after the rollback.
      let outcome: VerifyOutcome;
      try {
        outcome = await deps.audit.atomically(async () => {
          const checked = await deps.mfa.verifyPasscode(upn, request.code, {
            now: request.now,
            // Where the person is, for the provider's network policies: only when the code is their
            // own (a helpdesk member reading a code over the phone is somewhere else).
            ipaddr: request.purpose === 'admin_verify_identity' ? null : (request.clientAddress ?? null),
            deviceId: request.deviceId,
            methods,
          });
          // Where the provider names the device (the builtin store; Duo only for the one asked for, or
          // the only one), a device the person may not use does not count: the check is undone.
          if (usable && checked.ok && checked.deviceId && !usable.deviceUsable(checked.deviceId)) throw new NotUsable(checked.deviceId);
          await auditOutcome(checked);
          return checked;
        });
      } catch (err) {
        if (err instanceof NotUsable) return notAllowed({ deviceId: err.deviceId });
        // A refusal before any code was checked (e.g. another user's device id): audited, then passed on.
        if (err instanceof MfaError) {
          await deps.audit.append({
            ...common,
            action: 'mfa.verify',
            outcome: 'failure',
            reason: failureCode(err),
            details: base,
          });
        }
        throw err;
      }

      async function auditOutcome(checked: VerifyOutcome): Promise<void> {
        if (checked.ok) {
          await deps.audit.append({
            ...common,
            action: 'mfa.verify',
            outcome: 'success',
            details: {
              ...base,
              method: checked.method,
              ...(checked.deviceId ? { deviceId: checked.deviceId } : {}),
              ...(checked.bypassId ? { bypassId: checked.bypassId } : {}),
            },
          });
          return;
        }
        await deps.audit.append({
          ...common,
          action: 'mfa.verify',
          outcome: 'failure',
          reason: VERIFY_FAILURE_CODES[checked.reason],
          details: base,
        });
        if (checked.justLocked) {
          // A locked account keeps no session: whoever was guessing, and every token issued before, stop here.
          await deps.audit.atomically(async () => {
            await deps.onLockout?.(request.upn.toLowerCase());
            await deps.audit.append({
              ...common,
              action: 'mfa.lockout',
              outcome: 'success',
              reason: LOCKOUT_REASON,
              details: { purpose: request.purpose, retryAfterSeconds: checked.retryAfterSeconds },
            });
          });
        }
      }
      return outcome;
    },
  };
  return service;
}
