import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { activateBodySchema, PORTAL_AUTHENTICATOR_APP, type ActivateBody } from '@mfa-portal/shared';
import type { z } from 'zod';
import { generateTotpSecret } from '../common/otp.js';
import { MfaError, type AuthenticatorApp } from '../port.js';
import { authenticatorRepository, type AuthenticatorRepository } from './authenticator.repository.js';
import type { BuiltinContext } from './builtin-context.js';
import { assertUsable, deviceSecretAad, isUuid, subscriptionSecretAad, toDevice } from './builtin-mapping.js';
import { builtinRepository, type BuiltinRepository } from './builtin.repository.js';

/**
 * Activation of the portal's authenticator app by a single-use link: 32 random bytes (base64url) of
 * which only the SHA-256 is kept, bound to the user, valid for the configured minutes. Using it
 * registers the phone as a `phone` device of the app (its device key, platform, name and Web Push
 * subscription) and gives the app the device's passcode seed.
 */

export type BuiltinActivation = Pick<AuthenticatorApp, 'startActivation' | 'activationState' | 'activate' | 'activationOwner'>;

/** Links are kept this long after they run out (the desktop may still ask about one), then forgotten. */
const ACTIVATION_RETENTION_MS = 24 * 3600 * 1000;

export const activationTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** The phone's first name when the app gives none (the person renames it afterwards). */
const DEFAULT_NAME: Record<ActivateBody['platform'], string> = { ios: 'iPhone', android: 'Android phone', other: 'Phone' };

/** The first problem of a bad body, as the provider's refusal (its field, dotted). */
function invalid(error: z.ZodError): MfaError {
  const issue = error.issues[0];
  return new MfaError('invalid_request', { field: issue?.path.join('.') || 'body', reason: issue?.message ?? 'is invalid' });
}

export function builtinActivation(ctx: BuiltinContext, opts: { activationMinutes: number }): BuiltinActivation {
  const { db, userOrThrow } = ctx;
  const { box } = ctx.keys;
  const tx = <T>(fn: (r: BuiltinRepository, a: AuthenticatorRepository) => Promise<T>): Promise<T> =>
    db.transaction().execute((trx) => fn(builtinRepository(trx), authenticatorRepository(trx)));

  return {
    async startActivation(username, startOpts) {
      const now = startOpts.now ?? new Date();
      const id = randomUUID();
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + opts.activationMinutes * 60_000);
      await tx(async (r, a) => {
        const user = await r.lockUserByUsername(username);
        assertUsable(user, now);
        if (!startOpts.allowWhenDevicesExist && (await r.countDevices(user.id)) > 0) throw new MfaError('has_devices');
        await a.deleteOldActivations(user.id, new Date(now.getTime() - ACTIVATION_RETENTION_MS));
        await a.insertActivation({
          id,
          user_id: user.id,
          token_hash: activationTokenHash(token),
          allow_additional: startOpts.allowWhenDevicesExist,
          created_at: now,
          expires_at: expiresAt,
        });
      });
      return { activationId: id, token, expiresAt };
    },

    async activationState(username, activationId, stateOpts = {}) {
      const now = stateOpts.now ?? new Date();
      const user = await userOrThrow(username);
      const row = isUuid(activationId) ? await authenticatorRepository(db).findActivation(user.id, activationId) : undefined;
      if (!row) throw new MfaError('activation_invalid');
      if (row.used_at) {
        const device = row.device_id ? await ctx.repo.findDevice(user.id, row.device_id) : undefined;
        return { state: 'activated', expiresAt: row.expires_at, device: device ? toDevice(device) : null };
      }
      return { state: row.expires_at.getTime() <= now.getTime() ? 'expired' : 'waiting', expiresAt: row.expires_at, device: null };
    },

    async activationOwner(token) {
      return typeof token === 'string' && token.length > 0
        ? authenticatorRepository(db).activationOwnerByHash(activationTokenHash(token))
        : null;
    },

    async activate(input, activateOpts = {}) {
      const now = activateOpts.now ?? new Date();
      // Checked here too: whatever the route let through, nothing is stored from a bad body.
      const parsed = activateBodySchema.safeParse(input);
      if (!parsed.success) throw invalid(parsed.error);
      const body = parsed.data;
      const tokenHash = activationTokenHash(body.token);
      return tx(async (r, a) => {
        // The user's row first, then the link: the order every change of this user's devices takes.
        const seen = await a.findActivationByHash(tokenHash);
        if (!seen) throw new MfaError('activation_invalid', { field: 'token' });
        const user = await a.lockUserById(seen.user_id);
        const activation = await a.lockActivationByHash(tokenHash);
        if (!activation || !user) throw new MfaError('activation_invalid', { field: 'token' });
        if (activation.used_at) throw new MfaError('activation_used', { field: 'token' });
        if (activation.expires_at.getTime() <= now.getTime()) throw new MfaError('activation_expired', { field: 'token' });
        assertUsable(user, now);
        // The first-device rule, decided again: a device added since the link was made counts.
        if (!activation.allow_additional && (await r.countDevices(user.id)) > 0) throw new MfaError('has_devices');

        const deviceId = randomUUID();
        const secret = generateTotpSecret();
        const device = await r.insertDevice({
          id: deviceId,
          user_id: user.id,
          kind: 'phone',
          name: body.deviceName ?? DEFAULT_NAME[body.platform],
          capabilities: ['push', 'passcode'],
          platform: body.platform,
          secret_sealed: box.seal(secret, deviceSecretAad(deviceId)),
          app: PORTAL_AUTHENTICATOR_APP,
          created_at: now,
        });
        await a.insertAuthenticator({
          device_id: deviceId,
          public_key_jwk: JSON.stringify(body.publicKey),
          push_subscription_sealed: body.pushSubscription
            ? box.seal(JSON.stringify(body.pushSubscription), subscriptionSecretAad(deviceId))
            : null,
          created_at: now,
        });
        if (!(await a.useActivation(activation.id, deviceId, now))) throw new MfaError('activation_used', { field: 'token' });
        return { username: user.username, device: toDevice(device), passcodeSecret: secret };
      });
    },
  };
}
