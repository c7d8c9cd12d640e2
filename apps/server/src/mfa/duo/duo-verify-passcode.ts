import { normalizeBypassCode } from '../common/bypass-codes.js';
import { verifyFailure } from '../common/verify-outcome.js';
import { MfaError, type MfaProvider } from '../port.js';
import type { DuoLookups } from './duo-lookups.js';
import type { DuoProviderDeps } from './duo-deps.js';
import { DUO_CANNOT_VERIFY_REASON, DUO_LOCKED_OUT_REASON, statusOf, type FoundDevice, type UserDevices } from './duo-mapping.js';

/**
 * Passcodes and bypass codes at Duo, checked by the Auth API (preauth, then auth with
 * factor=passcode): Duo applies its own lockout and single use; the portal still rate-limits before
 * calling. A user Duo would let through without a check (bypass status, a policy) is not verified.
 */
export function duoVerifyPasscode(deps: Pick<DuoProviderDeps, 'auth'>, lookups: DuoLookups): Pick<MfaProvider, 'verifyPasscode'> {
  const { auth } = deps;
  const { findUser, devicesOf } = lookups;

  return {
    async verifyPasscode(username, code, opts = {}) {
      const methods = opts.methods ?? ['passcode', 'bypass'];
      const user = await findUser(username);
      if (!user) return verifyFailure('not_provisioned');
      const { status, statusReason } = statusOf(user);
      if (status === 'disabled') return verifyFailure('user_disabled', { statusReason });
      if (status === 'locked_out') return verifyFailure('user_locked_out', { statusReason });
      // Duo lets a user in bypass status through with any code: nothing can verify one for them.
      if (status === 'bypass') return verifyFailure('no_factor', { statusReason: DUO_CANNOT_VERIFY_REASON });

      let devices: UserDevices | null = null;
      let target: FoundDevice | null = null;
      if (opts.deviceId) {
        devices = await devicesOf(user);
        target = devices.find(opts.deviceId);
        if (!target) throw new MfaError('device_not_found');
        if (!target.device.capabilities.includes('passcode')) throw new MfaError('verification_unsupported');
      }

      const passcode = /^[0-9]{6}$/.test(code) && methods.includes('passcode') ? code : null;
      const bypass = passcode === null && !opts.deviceId && methods.includes('bypass') ? normalizeBypassCode(code) : null;
      // Malformed, or of a kind not asked for: refused without asking Duo (Duo's lockout is not touched;
      // the portal's rate limit has already counted the attempt).
      if (passcode === null && bypass === null) return verifyFailure('code_invalid');

      let passcodeDevices: FoundDevice[] = [];
      if (passcode !== null) {
        devices ??= await devicesOf(user);
        passcodeDevices = target
          ? [target]
          : devices.devices.flatMap((d) => (d.capabilities.includes('passcode') ? [devices!.find(d.id)!] : []));
        if (passcodeDevices.length === 0) return verifyFailure('no_factor');
      }

      const ipaddr = opts.ipaddr || null;
      const pre = await auth.preauth(user.user_id, { ipaddr });
      if (pre.result === 'allow') return verifyFailure('no_factor', { statusReason: DUO_CANNOT_VERIFY_REASON });
      if (pre.result === 'deny') return verifyFailure('user_disabled', { statusReason: pre.status_msg || null });
      if (pre.result === 'enroll' && passcode !== null) return verifyFailure('no_factor');

      const result = await auth.passcode(user.user_id, passcode ?? bypass!, { ipaddr });
      if (result.result === 'allow' && result.status === 'allow') {
        if (bypass !== null) return { ok: true, method: 'bypass', deviceId: null, bypassId: null };
        // Duo does not say which device gave the code: named when it is the one asked for, or the only one.
        const only = passcodeDevices.length === 1 ? passcodeDevices[0]! : null;
        return { ok: true, method: 'hotp', deviceId: only?.device.id ?? null, bypassId: null };
      }
      // Allowed without the code being checked (a policy, a bypass status set meanwhile): not a verification.
      if (result.result === 'allow') return verifyFailure('no_factor', { statusReason: DUO_CANNOT_VERIFY_REASON });
      if (result.status === 'locked_out' || /locked/i.test(result.status_msg ?? '')) {
        const locked = await findUser(username);
        return verifyFailure('user_locked_out', {
          justLocked: true,
          statusReason: (locked && statusOf(locked).statusReason) || DUO_LOCKED_OUT_REASON,
        });
      }
      // A wrong code, or a right one used before: Duo does not tell them apart.
      return verifyFailure('code_invalid');
    },
  };
}
