import { createHash } from 'node:crypto';
import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { COSEALG, isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Device, WebauthnOptionsResponse, finishRegistrationBodySchema } from '@mfa-portal/shared';
import type { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { failureCode } from '../common/error-translator.js';
import { firstDeviceGuard } from '../common/self-service.js';
import { AttestationUntrusted } from './attestation-trust.js';
import { sessionOf, verifiedBy, type Ceremony, type WebauthnContext, type WebauthnServiceDeps } from './ceremony.js';
import { classifyCredential } from './credential-kind.js';

type FinishRegistration = z.output<typeof finishRegistrationBodySchema>;

/**
 * The signature algorithms a new credential may use, the same on every runtime. SimpleWebAuthn's
 * default adds ML-DSA-44 where the runtime can verify it (Node 24.7 and later), and browsers now create
 * such keys when offered: a passkey registered on Node 26 would then stop working after a move to an
 * older supported Node, and its 2,420-byte signatures outgrow the assertion's bound. Post-quantum keys
 * come when every Node the portal supports verifies them.
 */
const WEBAUTHN_ALGORITHMS = [COSEALG.EdDSA, COSEALG.ES256, COSEALG.RS256];

/** An opaque, stable user handle (no e-mail address on the authenticator). */
const userHandle = (upn: string) => new Uint8Array(createHash('sha256').update(`mfa-portal-user:${upn}`).digest());

/**
 * Registering a passkey or security key. The administrator's AAGUID allow-list applies: with FIDO
 * metadata configured, registration then asks for attestation and the model must be proven by it;
 * without, attestation is `none` and the list compares the model the authenticator claims (advisory).
 * A second device needs a fresh step-up; a first one, what the first-device policy asks. Every start
 * and finish is audited, refusals included; the refusal itself passes on to the error handler.
 */
export function webauthnRegistration(deps: WebauthnServiceDeps, ceremony: Ceremony) {
  const { mfa, audit, policy, rp } = deps;
  const { clock, ttlMs, record, requireCapability, usableAccount, issue, consume, throttle } = ceremony;
  const allowWhenDevicesExist = firstDeviceGuard(deps.stepUp, deps.firstDevice);

  /**
   * Which of a passkey and a security key the person's factor policy lets them add now; refused (the
   * policy's own answer) when neither. What the browser made is only known at the end, and checked then.
   */
  async function kindsAllowed(upn: string): Promise<Array<'passkey' | 'security_key'>> {
    const gate = deps.factorPolicy;
    if (!gate) return ['passkey', 'security_key'];
    const allowed: Array<'passkey' | 'security_key'> = [];
    let refusal: unknown = null;
    for (const kind of ['passkey', 'security_key'] as const) {
      try {
        await gate.assertMayEnrol(upn, kind);
        allowed.push(kind);
      } catch (err) {
        refusal ??= err;
      }
    }
    if (allowed.length === 0) throw refusal;
    return allowed;
  }

  /** The metadata that new registrations must satisfy now: only while the allow-list names models. */
  async function attestationTrustInForce() {
    if (!policy.attestationTrust) return null;
    const { aaguidAllowList } = await policy.get();
    return aaguidAllowList.length > 0 ? policy.attestationTrust : null;
  }

  return {
    /** Starts registering a passkey or security key: the creation options for `navigator.credentials.create()`. */
    async startRegistration(ctx: WebauthnContext): Promise<WebauthnOptionsResponse> {
      const now = clock();
      const upn = ctx.upn.toLowerCase();
      try {
        requireCapability();
        const account = await usableAccount(upn, now);
        const kinds = await kindsAllowed(upn);
        const allowAdditional = await allowWhenDevicesExist(sessionOf(ctx), now);
        if (!allowAdditional && account.deviceCount > 0) throw new AppError({ code: 'auth.step_up_required' });
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
          supportedAlgorithmIDs: WEBAUTHN_ALGORITHMS,
          // Security keys only: the browser is asked for a roaming key (USB, NFC), not this device.
          authenticatorSelection: {
            residentKey: 'preferred',
            userVerification: 'required',
            ...(kinds.includes('passkey') ? {} : { authenticatorAttachment: 'cross-platform' as const }),
          },
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
        await record(ctx, 'device.webauthn_register_start', 'failure', failureCode(err), {});
        throw err;
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
            supportedAlgorithmIDs: WEBAUTHN_ALGORITHMS,
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
        details.kind = kind;
        // What the browser made must be a kind the person's policy lets them add (a passkey where only security keys are allowed is refused).
        await deps.factorPolicy?.assertMayEnrol(upn, kind);
        // A step-up fresh when the ceremony began still counts at its end.
        const allowAdditional = await allowWhenDevicesExist(sessionOf(ctx), now, challenge.allow_additional);
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
            { allowWhenDevicesExist: allowAdditional, now },
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
        await record(ctx, 'device.webauthn_register', 'failure', failureCode(err), details);
        throw err;
      }
    },
  };
}
