import type { ErrorCode } from '@mfa-portal/shared';
import type { AuditActor, AuditService } from '../modules/audit/audit.service.js';
import { LOCKOUT_REASON } from './builtin/lockout.js';
import { mfaErrorToAppError } from './errors.js';
import { MfaError, type MfaProvider, type VerifyFailure, type VerifyMethod, type VerifyOutcome } from './port.js';
import { createMemoryRateLimiter, type AsyncRateLimiter } from './rate-limit-store.js';

/**
 * Verification of a second factor on behalf of a user: the one entry point for step-up, device tests
 * and (embedded identity provider) sign-in. It rate limits per user and per client address (in the
 * database, shared by every instance, when the app wires `limiters`; in memory otherwise), lets the provider check the code and apply its lockout, and audits every
 * attempt, refused ones included. Never a code in the audit log.
 */

/** `admin_verify_identity`: a helpdesk member checks a caller's passcode before acting for them (issue 5). */
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
export type VerificationResult = VerifyOutcome | RateLimited;

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
export const VERIFY_FAILURE_CODES: Record<VerifyFailure | 'rate_limited', ErrorCode> = {
  code_invalid: 'mfa.code_invalid',
  code_replayed: 'mfa.code_replayed',
  user_locked_out: 'mfa.user_locked_out',
  user_disabled: 'mfa.user_disabled',
  not_provisioned: 'mfa.user_not_provisioned',
  no_factor: 'mfa.no_factor',
  rate_limited: 'request.rate_limited',
};

export function createVerificationService(deps: {
  mfa: MfaProvider;
  audit: AuditService;
  limits: VerificationLimits;
  clock?: () => number;
  /** Where the budgets live (default: this process's memory). */
  limiters?: VerificationLimiters;
}): VerificationService {
  // Read the clock at each call (not a captured Date.now), so an injected or faked clock applies.
  const clock = deps.clock ?? (() => Date.now());
  const { perUser, perAddress } = deps.limiters ?? {
    perUser: createMemoryRateLimiter({ limit: deps.limits.perUser, intervalSeconds: deps.limits.windowSeconds, now: clock }),
    perAddress: createMemoryRateLimiter({ limit: deps.limits.perAddress, intervalSeconds: deps.limits.windowSeconds, now: clock }),
  };

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
      let outcome: VerifyOutcome;
      try {
        outcome = await deps.mfa.verifyPasscode(upn, request.code, {
          now: request.now,
          deviceId: request.deviceId,
          methods: request.methods,
        });
      } catch (err) {
        // A refusal before any code was checked (e.g. another user's device id): audited, then passed on.
        if (err instanceof MfaError) {
          await deps.audit.append({
            ...common,
            action: 'mfa.verify',
            outcome: 'failure',
            reason: mfaErrorToAppError(err).code,
            details: base,
          });
        }
        throw err;
      }
      if (outcome.ok) {
        await deps.audit.append({
          ...common,
          action: 'mfa.verify',
          outcome: 'success',
          details: {
            ...base,
            method: outcome.method,
            ...(outcome.deviceId ? { deviceId: outcome.deviceId } : {}),
            ...(outcome.bypassId ? { bypassId: outcome.bypassId } : {}),
          },
        });
      } else {
        await deps.audit.append({
          ...common,
          action: 'mfa.verify',
          outcome: 'failure',
          reason: VERIFY_FAILURE_CODES[outcome.reason],
          details: base,
        });
        if (outcome.justLocked) {
          await deps.audit.append({
            ...common,
            action: 'mfa.lockout',
            outcome: 'success',
            reason: LOCKOUT_REASON,
            details: { purpose: request.purpose, retryAfterSeconds: outcome.retryAfterSeconds },
          });
        }
      }
      return outcome;
    },
  };
  return service;
}
