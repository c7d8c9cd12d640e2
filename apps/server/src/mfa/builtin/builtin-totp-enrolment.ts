import { randomUUID } from 'node:crypto';
import { TOTP_ENROLMENT_TTL_SECONDS } from '@mfa-portal/shared';
import { generateTotpSecret, otpauthUri, qrCodeSvg, verifyTotp } from '../common/otp.js';
import { MfaError, type MfaProvider } from '../port.js';
import type { BuiltinContext } from './builtin-context.js';
import { assertUsable, deviceSecretAad, enrolmentSecretAad, MAX_PENDING_ENROLMENTS, toDevice } from './builtin-mapping.js';

/**
 * Authenticator-app (TOTP) enrolment: a fresh secret, sealed and held as a pending enrolment until
 * a first valid code confirms it; that code's step is then used, so it verifies nothing else.
 */
export function builtinTotpEnrolment(ctx: BuiltinContext): Pick<MfaProvider, 'startTotpEnrolment' | 'confirmTotpEnrolment'> {
  const { tx } = ctx;
  const { box } = ctx.keys;

  return {
    async startTotpEnrolment(username, opts) {
      const now = opts.now ?? new Date();
      const id = randomUUID();
      const secret = generateTotpSecret();
      const expiresAt = new Date(now.getTime() + TOTP_ENROLMENT_TTL_SECONDS * 1000);
      const account = await tx(async (r) => {
        const user = await r.lockUserByUsername(username);
        assertUsable(user, now);
        if (!opts.allowWhenDevicesExist && (await r.countDevices(user.id)) > 0) throw new MfaError('has_devices');
        await r.deleteExpiredEnrolments(user.id, now);
        await r.insertEnrolment({
          id,
          user_id: user.id,
          secret_sealed: box.seal(secret, enrolmentSecretAad(id)),
          allow_additional: opts.allowWhenDevicesExist,
          created_at: now,
          expires_at: expiresAt,
        });
        await r.trimEnrolments(user.id, MAX_PENDING_ENROLMENTS);
        return user.username;
      });
      const uri = otpauthUri({ secret, account, issuer: opts.issuer });
      return { enrolmentId: id, secret, otpauthUri: uri, qrSvg: await qrCodeSvg(uri), expiresAt };
    },

    async confirmTotpEnrolment(username, enrolmentId, input, opts) {
      const now = opts.now ?? new Date();
      return tx(async (r) => {
        const user = await r.lockUserByUsername(username);
        assertUsable(user, now);
        const enrolment = await r.findEnrolment(user.id, enrolmentId);
        if (!enrolment) throw new MfaError('enrolment_not_found');
        if (enrolment.expires_at.getTime() <= now.getTime()) throw new MfaError('enrolment_expired');
        if (!opts.allowWhenDevicesExist && !enrolment.allow_additional && (await r.countDevices(user.id)) > 0)
          throw new MfaError('has_devices');
        const secret = box.open(enrolment.secret_sealed, enrolmentSecretAad(enrolment.id)).toString('utf8');
        const result = verifyTotp({ secret, code: input.code, now, lastUsedStep: null });
        if (!result.ok) throw new MfaError('code_invalid', { field: 'code' });
        const deviceId = randomUUID();
        const device = await r.insertDevice({
          id: deviceId,
          user_id: user.id,
          kind: 'authenticator',
          name: input.name,
          capabilities: ['passcode'],
          secret_sealed: box.seal(secret, deviceSecretAad(deviceId)),
          // The confirming code is used: it cannot verify anything else.
          last_used_step: result.step,
          created_at: now,
        });
        await r.deleteEnrolment(enrolment.id);
        return toDevice(device);
      });
    },
  };
}
