import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import {
  WEBAUTHN_CHALLENGE_TTL_SECONDS,
  type Device,
  type ErrorCode,
  type WebauthnOptionsResponse,
  type finishAssertionBodySchema,
  type finishRegistrationBodySchema,
} from '@mfa-portal/shared';
import type { z } from 'zod';
import type { Database, WebauthnChallengePurpose } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { mfaErrorToAppError } from '../../mfa/errors.js';
import { MfaError, type MfaProvider } from '../../mfa/port.js';
import type { VerificationService } from '../verification/verification.service.js';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import type { FirstDeviceGate } from '../common/self-service.js';
import type { StepUpService } from '../step-up/step-up.service.js';
import { AttestationUntrusted } from './attestation-trust.js';
import { classifyCredential } from './credential-kind.js';
import type { WebauthnPolicyService } from './webauthn-policy.service.js';
import { webauthnRepository } from './webauthn.repository.js';
import { verificationFailed, verifiedBy } from './webauthn-verification.js';

/**
 * WebAuthn ceremonies with SimpleWebAuthn: registration of passkeys and security keys, and
 * assertions for step-up, a device test and the embedded sign-in's second factor. Challenges live in
 * the database (every instance can finish what another started), are single use (taken out before
 * the response is checked) and expire. The relying party is the portal: RP ID = its host, expected
 * origin = its origin. User verification is required. The administrator's AAGUID allow-list applies to
 * new registrations: with FIDO metadata configured, registration then asks for attestation and the
 * model must be proven by it; without, attestation is `none` and the list compares the model the
 * authenticator claims (advisory). The signature counter is checked by the provider
 * (atomically, with the stored value): a counter that goes back is refused and audited as a possible clone.
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

/** The step-up record's key for this context; none before sign-in, so no step-up is ever found or kept there. */
const sessionOf = (ctx: WebauthnContext) => ({ upn: ctx.upn, session: ctx.session ?? '' });

type AssertionPurpose = Exclude<WebauthnChallengePurpose, 'registration'>;
type FinishRegistration = z.output<typeof finishRegistrationBodySchema>;
type FinishAssertion = z.output<typeof finishAssertionBodySchema>;

/** Challenges kept per user (older ones are dropped when a new one is issued). */
const MAX_CHALLENGES_PER_USER = 10;

export function createWebauthnService(deps: {
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
}) {
  const { mfa, audit, stepUp, verification, policy, rp } = deps;
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

  const toAppError = (err: unknown): AppError | null =>
    err instanceof AppError ? err : err instanceof MfaError ? mfaErrorToAppError(err) : null;

  function requireCapability(): void {
    if (!mfa.capabilities.webauthn)
      throw new MfaError('not_supported', { reason: `The ${mfa.name} MFA provider enrols passkeys in its own prompt.` });
  }

  async function usableAccount(upn: string, now: Date) {
    const account = await mfa.getAccount(upn, now);
    if (!account) throw new AppError({ code: 'mfa.user_not_provisioned' });
    if (account.status === 'disabled') throw new MfaError('user_disabled', account.statusReason ? { reason: account.statusReason } : {});
    if (account.status === 'locked_out')
      throw new MfaError('user_locked_out', account.statusReason ? { reason: account.statusReason } : {});
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

  /** An opaque, stable user handle (no e-mail address on the authenticator). */
  const userHandle = (upn: string) => new Uint8Array(createHash('sha256').update(`mfa-portal-user:${upn}`).digest());

  async function throttle(ctx: WebauthnContext, action: string, details: Record<string, unknown>) {
    const limited = await verification.throttle({
      upn: ctx.upn,
      clientAddress: ctx.clientAddress,
      action,
      actor: actorOf(ctx),
      requestId: ctx.requestId,
      details,
    });
    if (limited)
      throw new AppError({
        code: 'request.rate_limited',
        details: { retryAfterSeconds: limited.retryAfterSeconds },
        headers: { 'retry-after': String(limited.retryAfterSeconds) },
      });
  }

  /** The metadata that new registrations must satisfy now: only while the allow-list names models. */
  async function attestationTrustInForce() {
    if (!policy.attestationTrust) return null;
    const { aaguidAllowList } = await policy.get();
    return aaguidAllowList.length > 0 ? policy.attestationTrust : null;
  }

  const service = {
    /** Starts registering a passkey or security key: the creation options for `navigator.credentials.create()`. */
    async startRegistration(ctx: WebauthnContext): Promise<WebauthnOptionsResponse> {
      const now = clock();
      const upn = ctx.upn.toLowerCase();
      try {
        requireCapability();
        const account = await usableAccount(upn, now);
        const allowAdditional = ctx.session ? await stepUp.isFresh(sessionOf(ctx), now) : false;
        if (!allowAdditional && account.deviceCount > 0) throw new MfaError('has_devices');
        if (!allowAdditional) await deps.firstDevice?.assertAllowed(sessionOf(ctx), now);
        const existing = await mfa.listWebauthnCredentials(upn);
        const trust = await attestationTrustInForce();
        const options = await generateRegistrationOptions({
          rpName: rp.rpName,
          rpID: rp.rpId,
          userName: upn,
          userDisplayName: upn,
          userID: userHandle(upn),
          timeout: ttlMs,
          attestationType: trust?.conveyance ?? 'none',
          excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: c.transports })),
          authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
        });
        // The challenge and its audit event: one transaction.
        const issued = await audit.atomically(async () => {
          const created = await issue(upn, 'registration', options.challenge, now, { allowAdditional });
          await record(ctx, 'device.webauthn_register_start', 'success', null, { challengeId: created.id });
          return created;
        });
        return {
          challengeId: issued.id,
          options: options as unknown as Record<string, unknown>,
          expiresAt: issued.expiresAt.toISOString(),
        };
      } catch (err) {
        const appError = toAppError(err);
        await record(ctx, 'device.webauthn_register_start', 'failure', appError?.code ?? 'server.internal', {});
        throw appError ?? err;
      }
    },

    /** Checks the new credential and stores it as a device (named by its owner). Nothing is stored on any refusal. */
    async finishRegistration(ctx: WebauthnContext, body: FinishRegistration): Promise<Device> {
      const now = clock();
      const upn = ctx.upn.toLowerCase();
      const details: Record<string, unknown> = { challengeId: body.challengeId };
      await throttle(ctx, 'device.webauthn_register', details);
      try {
        requireCapability();
        const challenge = await consume(upn, 'registration', body.challengeId, now);
        await usableAccount(upn, now);
        const verified = await verifiedBy(() =>
          verifyRegistrationResponse({
            response: body.response as unknown as RegistrationResponseJSON,
            expectedChallenge: challenge.challenge,
            expectedOrigin: rp.origin,
            expectedRPID: rp.rpId,
            requireUserVerification: true,
          }),
        );
        const info = verified.registrationInfo;
        details.aaguid = info.aaguid;
        details.attestationFormat = info.fmt;
        const { aaguidAllowList } = await policy.get();
        if (aaguidAllowList.length > 0 && !aaguidAllowList.includes(info.aaguid.toLowerCase()))
          throw new AppError({
            code: 'webauthn.authenticator_not_allowed',
            details: {
              field: 'response',
              reason: `Model ${info.aaguid} is not on the allow-list.`,
            },
          });
        // Listed, but only said by the authenticator: with metadata, its attestation must prove it.
        const trust = aaguidAllowList.length > 0 ? policy.attestationTrust : null;
        if (trust) {
          try {
            trust.verify(info, now);
          } catch (err) {
            if (!(err instanceof AttestationUntrusted)) throw err;
            throw new AppError({ code: 'webauthn.attestation_untrusted', details: { field: 'response', reason: err.message } });
          }
          details.attestation = 'verified';
        }
        const attachment = body.response.authenticatorAttachment ?? null;
        const transports = [...(info.credential.transports ?? body.response.response.transports ?? [])].map(String);
        const kind = classifyCredential({ attachment, transports, backupEligible: info.credentialDeviceType === 'multiDevice' });
        const allowWhenDevicesExist = challenge.allow_additional || (ctx.session ? await stepUp.isFresh(sessionOf(ctx), now) : false);
        if (!allowWhenDevicesExist) await deps.firstDevice?.assertAllowed(sessionOf(ctx), now);
        // The credential and its audit event: one transaction.
        return await audit.atomically(async () => {
          const device = await mfa.addWebauthnCredential(
            upn,
            {
              credentialId: info.credential.id,
              publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
              signCount: info.credential.counter,
              transports,
              aaguid: info.aaguid,
              attachment,
              backupEligible: info.credentialDeviceType === 'multiDevice',
              backedUp: info.credentialBackedUp,
              kind,
              name: body.name,
            },
            { allowWhenDevicesExist, now },
          );
          await record(ctx, 'device.webauthn_register', 'success', null, {
            ...details,
            deviceId: device.id,
            kind: device.kind,
            deviceName: device.name,
          });
          return device;
        });
      } catch (err) {
        const appError = toAppError(err);
        await record(ctx, 'device.webauthn_register', 'failure', appError?.code ?? 'server.internal', details);
        throw appError ?? err;
      }
    },

    /** The request options for `navigator.credentials.get()`, limited to the user's credentials (or one of them). */
    async startAssertion(
      ctx: WebauthnContext,
      purpose: AssertionPurpose,
      opts: { deviceId?: string; interactionUid?: string } = {},
    ): Promise<WebauthnOptionsResponse> {
      const now = clock();
      const upn = ctx.upn.toLowerCase();
      try {
        requireCapability();
        await usableAccount(upn, now);
        const all = await mfa.listWebauthnCredentials(upn);
        if (opts.deviceId && !(await mfa.listDevices(upn)).some((d) => d.id === opts.deviceId)) throw new MfaError('device_not_found');
        const credentials = opts.deviceId ? all.filter((c) => c.deviceId === opts.deviceId) : all;
        if (opts.deviceId && credentials.length === 0) throw new MfaError('verification_unsupported');
        if (credentials.length === 0) throw new AppError({ code: 'webauthn.no_credentials' });
        const options = await generateAuthenticationOptions({
          rpID: rp.rpId,
          timeout: ttlMs,
          userVerification: 'required',
          allowCredentials: credentials.map((c) => ({ id: c.credentialId, transports: c.transports })),
        });
        const issued = await issue(upn, purpose, options.challenge, now, opts);
        return {
          challengeId: issued.id,
          options: options as unknown as Record<string, unknown>,
          expiresAt: issued.expiresAt.toISOString(),
        };
      } catch (err) {
        throw toAppError(err) ?? err;
      }
    },

    /**
     * Checks an assertion against the challenge and the user's credential, then moves its counter
     * (refused when it goes back: audited as `webauthn.possible_clone`). Audited as `mfa.verify`.
     */
    async finishAssertion(
      ctx: WebauthnContext,
      purpose: AssertionPurpose,
      body: FinishAssertion,
      opts: { deviceId?: string; interactionUid?: string } = {},
    ): Promise<Device> {
      const now = clock();
      const upn = ctx.upn.toLowerCase();
      const details: Record<string, unknown> = { purpose, method: 'webauthn', challengeId: body.challengeId };
      await throttle(ctx, 'mfa.verify', details);
      let deviceId: string | undefined;
      try {
        requireCapability();
        const challenge = await consume(upn, purpose, body.challengeId, now, opts.interactionUid);
        if (opts.deviceId !== undefined && challenge.device_id !== opts.deviceId)
          throw new AppError({ code: 'webauthn.challenge_not_found', details: { field: 'challengeId' } });
        await usableAccount(upn, now);
        const credential = (await mfa.listWebauthnCredentials(upn)).find(
          (c) => c.credentialId === body.response.id && (!challenge.device_id || c.deviceId === challenge.device_id),
        );
        if (!credential) throw verificationFailed(new Error('This passkey or security key is not registered for this account.'));
        deviceId = credential.deviceId;
        details.deviceId = deviceId;
        const verified = await verifiedBy(() =>
          verifyAuthenticationResponse({
            response: body.response as unknown as AuthenticationResponseJSON,
            expectedChallenge: challenge.challenge,
            expectedOrigin: rp.origin,
            expectedRPID: rp.rpId,
            // The counter is checked by the provider, atomically with the stored value (so a clone is told apart).
            credential: {
              id: credential.credentialId,
              publicKey: isoBase64URL.toBuffer(credential.publicKey),
              counter: 0,
              transports: credential.transports,
            },
            requireUserVerification: true,
          }),
        );
        // The new counter and its audit event: one transaction.
        const newCounter = verified.authenticationInfo.newCounter;
        return await audit.atomically(async () => {
          const device = await mfa.useWebauthnCredential(upn, credential.deviceId, newCounter, { now });
          await record(ctx, 'mfa.verify', 'success', null, details);
          return device;
        });
      } catch (err) {
        const appError = toAppError(err);
        const code: ErrorCode | 'server.internal' = appError?.code ?? 'server.internal';
        await record(ctx, 'mfa.verify', 'failure', code, details);
        if (code === 'webauthn.counter_regressed')
          await record(ctx, 'webauthn.possible_clone', 'failure', code, { deviceId, purpose, reason: appError?.details?.reason ?? null });
        throw appError ?? err;
      }
    },

    /** Step-up with a passkey or security key. */
    async stepUp(ctx: WebauthnContext, body: FinishAssertion) {
      await service.finishAssertion(ctx, 'step_up', body);
      if (!ctx.session) throw new AppError({ code: 'auth.token_invalid' });
      return stepUp.record(sessionOf(ctx), 'webauthn', clock());
    },

    /** Tests one of the user's WebAuthn devices now. */
    async testDevice(ctx: WebauthnContext, deviceId: string, body: FinishAssertion) {
      const device = await service.finishAssertion(ctx, 'device_test', body, { deviceId });
      return { verified: true as const, device, verifiedAt: clock().toISOString() };
    },
  };
  return service;
}

export type WebauthnService = ReturnType<typeof createWebauthnService>;
