import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Device, WebauthnOptionsResponse, finishAssertionBodySchema } from '@mfa-portal/shared';
import type { z } from 'zod';
import type { WebauthnChallengePurpose } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { translateError } from '../common/error-translator.js';
import { methodNotAllowed } from '../factor-policy/factor-policy.service.js';
import { sessionOf, verificationFailed, verifiedBy, type Ceremony, type WebauthnContext, type WebauthnServiceDeps } from './ceremony.js';

type AssertionPurpose = Exclude<WebauthnChallengePurpose, 'registration'>;

/** Sign-in and step-up confirm it is the person, so the factor policy's use rule applies; a device test is only a check. */
const confirmsIdentity = (purpose: AssertionPurpose) => purpose === 'sign_in' || purpose === 'step_up';
type FinishAssertion = z.output<typeof finishAssertionBodySchema>;

/**
 * Assertions with a registered passkey or security key: step-up, a device test, and the embedded
 * sign-in's second factor. The signature counter is checked by the provider (atomically, with the
 * stored value): a counter that goes back is refused and audited as a possible clone.
 */
export function webauthnAssertion(deps: WebauthnServiceDeps, ceremony: Ceremony) {
  const { mfa, audit, stepUp, rp } = deps;
  const { clock, ttlMs, record, requireCapability, usableAccount, issue, consume, throttle } = ceremony;

  /** The request options for `navigator.credentials.get()`, limited to the user's credentials (or one of them). */
  async function startAssertion(
    ctx: WebauthnContext,
    purpose: AssertionPurpose,
    opts: { deviceId?: string; interactionUid?: string } = {},
  ): Promise<WebauthnOptionsResponse> {
    const now = clock();
    const upn = ctx.upn.toLowerCase();
    requireCapability();
    await usableAccount(upn, now);
    const all = await mfa.listWebauthnCredentials(upn);
    if (opts.deviceId && !(await mfa.listDevices(upn)).some((d) => d.id === opts.deviceId))
      throw new AppError({ code: 'device.not_found' });
    let credentials = opts.deviceId ? all.filter((c) => c.deviceId === opts.deviceId) : all;
    if (opts.deviceId && credentials.length === 0) throw new AppError({ code: 'device.verification_unsupported' });
    if (credentials.length === 0) throw new AppError({ code: 'webauthn.no_credentials' });
    // Sign-in and step-up ask only for the credentials the person's factor policy lets them use.
    const usable = confirmsIdentity(purpose) ? await deps.factorPolicy?.usableNow(upn) : undefined;
    if (usable) {
      credentials = credentials.filter((c) => usable.deviceUsable(c.deviceId));
      if (credentials.length === 0) throw methodNotAllowed(usable.policy);
    }
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
  }

  /**
   * Checks an assertion against the challenge and the user's credential, then moves its counter
   * (refused when it goes back: audited as `webauthn.possible_clone`). Audited as `mfa.verify`.
   */
  async function finishAssertion(
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
      const usable = confirmsIdentity(purpose) ? await deps.factorPolicy?.usableNow(upn) : undefined;
      if (usable && !usable.deviceUsable(credential.deviceId)) throw methodNotAllowed(usable.policy);
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
      // The embedded sign-in's page answers from the refusal's code (a possible clone has its own
      // message), so a provider refusal leaves here as the AppError the one translator makes of it.
      const refusal = translateError(err);
      const code = refusal?.code ?? 'server.internal';
      await record(ctx, 'mfa.verify', 'failure', code, details);
      if (code === 'webauthn.counter_regressed')
        await record(ctx, 'webauthn.possible_clone', 'failure', code, { deviceId, purpose, reason: refusal?.details?.reason ?? null });
      throw refusal ?? err;
    }
  }

  return {
    startAssertion,
    finishAssertion,

    /** Step-up with a passkey or security key. */
    async stepUp(ctx: WebauthnContext, body: FinishAssertion) {
      await finishAssertion(ctx, 'step_up', body);
      if (!ctx.session) throw new AppError({ code: 'auth.token_invalid' });
      return stepUp.record(sessionOf(ctx), 'webauthn', clock());
    },

    /** Tests one of the user's WebAuthn devices now. */
    async testDevice(ctx: WebauthnContext, deviceId: string, body: FinishAssertion) {
      const device = await finishAssertion(ctx, 'device_test', body, { deviceId });
      return { verified: true as const, device, verifiedAt: clock().toISOString() };
    },
  };
}
