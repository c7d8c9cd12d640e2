import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { hashBypassCode, normalizeBypassCode } from '../common/bypass-codes.js';
import { isWellFormedOtp, verifyHotp, verifyTotp } from '../common/otp.js';
import type { MfaKeys } from '../mfa-keys.js';
import { MfaError, type VerifyOptions, type VerifyOutcome } from '../port.js';
import { verifyFailure } from '../common/verify-outcome.js';
import { deviceSecretAad, effectiveStatus, LOCKOUT_STATUS_REASON, tokenSeedAad } from './builtin-mapping.js';
import { builtinRepository } from './builtin.repository.js';
import { lockStatus, type LockoutPolicy } from './lockout.js';
import { recordFailure, recordSuccess } from './lockout-record.js';

/**
 * The builtin provider's code check, in one transaction with the user row locked: a running lock is
 * not even looked at; a TOTP step, an HOTP counter or a bypass-code use is accepted once (of two
 * concurrent uses of one code, one wins); a failure counts towards the lockout policy.
 */
export async function verifyBuiltinPasscode(
  db: Kysely<Database>,
  deps: { keys: Pick<MfaKeys, 'box' | 'bypassPepper'>; policy: LockoutPolicy },
  username: string,
  code: string,
  opts: VerifyOptions = {},
): Promise<VerifyOutcome> {
  const { box, bypassPepper } = deps.keys;
  const policy = deps.policy;
  const tx = <T>(fn: (trx: ReturnType<typeof builtinRepository>) => Promise<T>): Promise<T> =>
    db.transaction().execute((trx) => fn(builtinRepository(trx)));
  const now = opts.now ?? new Date();
  const methods = opts.methods ?? ['passcode', 'bypass'];

  return tx(async (r): Promise<VerifyOutcome> => {
    const user = await r.lockUserByUsername(username);
    if (!user) return verifyFailure('not_provisioned');
    const current = effectiveStatus(user, now);
    if (current.status === 'disabled') return verifyFailure('user_disabled', { statusReason: current.statusReason });
    if (current.status === 'locked_out') {
      // A running lock: the code is not even looked at.
      const running = current.lockedUntil ? lockStatus({ failures: user.failed_attempts, lockedUntil: current.lockedUntil }, now) : null;
      return verifyFailure('user_locked_out', {
        statusReason: current.statusReason,
        retryAfterSeconds: running?.retryAfterSeconds ?? null,
      });
    }

    let matched: Extract<VerifyOutcome, { ok: true }> | null = null;
    let failed: 'code_invalid' | 'code_replayed' = 'code_invalid';

    if (opts.deviceId) {
      const device = await r.findDevice(user.id, opts.deviceId);
      if (!device) throw new MfaError('device_not_found');
    }
    if (isWellFormedOtp(code) && methods.includes('passcode')) {
      const devices = (await r.listVerifiableDevices(user.id)).filter((d) => !opts.deviceId || d.id === opts.deviceId);
      if (devices.length === 0) {
        if (opts.deviceId) throw new MfaError('verification_unsupported');
        return verifyFailure('no_factor');
      }
      for (const device of devices) {
        if (device.token_id && device.seed_sealed && device.counter !== null) {
          const seed = box.open(device.seed_sealed, tokenSeedAad(device.token_id));
          const result = verifyHotp({ secret: seed, code, counter: device.counter });
          if (!result.ok) continue;
          // Conditional on the counter read: of two concurrent uses of one code, one wins.
          if (await r.advanceTokenCounter(device.token_id, device.counter, result.newCounter, now)) {
            await r.touchDevice(device.id, now);
            matched = { ok: true, method: 'hotp', deviceId: device.id, bypassId: null };
            break;
          }
          failed = 'code_replayed';
        } else if (device.secret_sealed) {
          const secret = box.open(device.secret_sealed, deviceSecretAad(device.id)).toString('utf8');
          const result = verifyTotp({ secret, code, now, lastUsedStep: device.last_used_step });
          if (result.ok && (await r.useTotpStep(device.id, result.step, now))) {
            matched = { ok: true, method: 'totp', deviceId: device.id, bypassId: null };
            break;
          }
          if (result.ok || result.reason === 'replayed') failed = 'code_replayed';
        }
      }
    } else if (!opts.deviceId && methods.includes('bypass')) {
      const normal = normalizeBypassCode(code);
      const used = normal === null ? undefined : await r.useBypassCode(user.id, hashBypassCode(normal, bypassPepper), now);
      if (used) matched = { ok: true, method: 'bypass', deviceId: null, bypassId: used.id };
    }

    if (matched) {
      await recordSuccess(r, user, now);
      return matched;
    }
    const decision = await recordFailure(r, user, now, policy);
    return verifyFailure(failed, {
      justLocked: decision.justLocked,
      retryAfterSeconds: decision.justLocked ? decision.retryAfterSeconds : null,
      statusReason: decision.justLocked ? LOCKOUT_STATUS_REASON : null,
    });
  });
}
