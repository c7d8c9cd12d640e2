import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { WEBAUTHN_CHALLENGE_TTL_SECONDS } from '@mfa-portal/shared';
import type { Database, WebauthnChallengePurpose } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { MfaProvider } from '../../mfa/port.js';
import type { VerificationService } from '../verification/verification.service.js';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import { rateLimited } from '../common/answers.js';
import type { FactorPolicyGate, FirstDeviceGate } from '../common/self-service.js';
import type { UsableFactors } from '../factor-policy/factor-policy.service.js';
import type { StepUpService } from '../step-up/step-up.service.js';
import type { WebauthnPolicyService } from './webauthn-policy.service.js';
import { webauthnRepository } from './webauthn.repository.js';

/**
 * What registration and assertion share: the relying party, the challenges (kept in the database so
 * every instance can finish what another started; single use, taken out before the response is
 * checked; expiring), the account checks, the verification budgets, the audit record, and how the
 * WebAuthn library's answer is read.
 */

export interface WebauthnRelyingParty {
  /** The portal's host name (config.publicUrl). */
  rpId: string;
  rpName: string;
  /** The portal's origin (scheme, host, port). */
  origin: string;
}

export interface WebauthnContext {
  upn: string;
  roles: readonly string[];
  requestId: string;
  clientAddress: string | null;
  /** The portal sign-in session (absent at the identity provider's own sign-in, where none exists yet). */
  session?: string;
}

export interface WebauthnServiceDeps {
  db: Kysely<Database>;
  mfa: MfaProvider;
  audit: AuditService;
  stepUp: StepUpService;
  verification: VerificationService;
  policy: WebauthnPolicyService;
  rp: WebauthnRelyingParty;
  now?: () => Date;
  challengeTtlSeconds?: number;
  /** First-device policy: asked before a first device is added without a step-up. */
  firstDevice?: FirstDeviceGate;
  /**
   * The factor policy: whether a passkey or a security key may be added, and which credentials may
   * confirm a sign-in or a step-up (a device test may use any).
   */
  factorPolicy?: FactorPolicyGate & { usableNow(upn: string): Promise<Pick<UsableFactors, 'deviceUsable' | 'policy'>> };
}

/** The step-up record's key for this context; none before sign-in, so no step-up is ever found or kept there. */
export const sessionOf = (ctx: WebauthnContext) => ({ upn: ctx.upn, session: ctx.session ?? '' });

/** Challenges kept per user (older ones are dropped when a new one is issued). */
const MAX_CHALLENGES_PER_USER = 10;

/** The shared steps of every ceremony, bound to the collaborators. */
export function ceremonyOf(deps: WebauthnServiceDeps) {
  const { mfa, audit, verification } = deps;
  const repo = webauthnRepository(deps.db);
  const clock = deps.now ?? (() => new Date());
  const ttlMs = (deps.challengeTtlSeconds ?? WEBAUTHN_CHALLENGE_TTL_SECONDS) * 1000;

  const actorOf = (ctx: WebauthnContext): AuditActor => ({ upn: ctx.upn, roles: ctx.roles });

  const record = (
    ctx: WebauthnContext,
    action: string,
    outcome: 'success' | 'failure',
    reason: string | null,
    details: Record<string, unknown>,
  ) =>
    audit.append({
      actor: actorOf(ctx),
      target: ctx.upn.toLowerCase(),
      action,
      outcome,
      reason,
      requestId: ctx.requestId,
      clientAddress: ctx.clientAddress,
      details,
    });

  /** 409 `mfa.not_supported_by_provider` when the provider enrols passkeys in its own prompt. */
  function requireCapability(): void {
    if (!mfa.capabilities.webauthn)
      throw new AppError({
        code: 'mfa.not_supported_by_provider',
        details: { reason: `The ${mfa.name} MFA provider enrols passkeys in its own prompt.` },
      });
  }

  /** A provisioned, usable account: 404 when not provisioned, 403 when disabled or locked out. */
  async function usableAccount(upn: string, now: Date) {
    const account = await mfa.getAccount(upn, now);
    if (!account) throw new AppError({ code: 'mfa.user_not_provisioned' });
    const reason = account.statusReason ? { details: { reason: account.statusReason } } : {};
    if (account.status === 'disabled') throw new AppError({ code: 'mfa.user_disabled', ...reason });
    if (account.status === 'locked_out') throw new AppError({ code: 'mfa.user_locked_out', ...reason });
    return account;
  }

  async function issue(
    upn: string,
    purpose: WebauthnChallengePurpose,
    challenge: string,
    now: Date,
    extra: { deviceId?: string; interactionUid?: string; allowAdditional?: boolean },
  ) {
    const id = randomUUID();
    const expiresAt = new Date(now.getTime() + ttlMs);
    await repo.sweep(upn, now, MAX_CHALLENGES_PER_USER - 1);
    await repo.insertChallenge({
      id,
      upn,
      purpose,
      challenge,
      device_id: extra.deviceId ?? null,
      interaction_uid: extra.interactionUid ?? null,
      allow_additional: extra.allowAdditional ?? false,
      created_at: now,
      expires_at: expiresAt,
    });
    return { id, expiresAt };
  }

  /** Takes the challenge out (used, whatever happens next); refuses an unknown or expired one. */
  async function consume(upn: string, purpose: WebauthnChallengePurpose, challengeId: string, now: Date, interactionUid?: string) {
    const row = await repo.consumeChallenge(challengeId, upn, purpose);
    if (!row || (interactionUid !== undefined && row.interaction_uid !== interactionUid))
      throw new AppError({ code: 'webauthn.challenge_not_found', details: { field: 'challengeId' } });
    if (new Date(row.expires_at).getTime() <= now.getTime())
      throw new AppError({ code: 'webauthn.challenge_expired', details: { field: 'challengeId' } });
    return row;
  }

  /** One attempt from the verification budgets (per user, per address); 429 with Retry-After when spent. */
  async function throttle(ctx: WebauthnContext, action: string, details: Record<string, unknown>) {
    const limited = await verification.throttle({
      upn: ctx.upn,
      clientAddress: ctx.clientAddress,
      action,
      actor: actorOf(ctx),
      requestId: ctx.requestId,
      details,
    });
    if (limited) throw rateLimited(limited.retryAfterSeconds);
  }

  return { clock, ttlMs, record, requireCapability, usableAccount, issue, consume, throttle };
}

export type Ceremony = ReturnType<typeof ceremonyOf>;

/** A WebAuthn response that did not verify: 400 `webauthn.verification_failed`, naming the response and why. */
export const verificationFailed = (err: unknown) =>
  new AppError({
    code: 'webauthn.verification_failed',
    details: {
      field: 'response',
      reason: err instanceof Error ? err.message.slice(0, 300) : 'The response could not be verified.',
    },
  });

/** The library's answer once verified (its registration answer is a union on `verified`, its assertion answer is not). */
type Verified<T> = [Extract<T, { verified: true }>] extends [never] ? T : Extract<T, { verified: true }>;

/**
 * What the WebAuthn library answers for a registration or an assertion; a throw, or an answer that did
 * not verify, is `webauthn.verification_failed`.
 */
export async function verifiedBy<T extends { verified: boolean }>(check: () => Promise<T>): Promise<Verified<T>> {
  let result: T;
  try {
    result = await check();
  } catch (err) {
    throw verificationFailed(err);
  }
  if (!result.verified) throw verificationFailed(null);
  return result as Verified<T>;
}
