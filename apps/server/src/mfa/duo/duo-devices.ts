import { MfaError, type MfaProvider } from '../port.js';
import type { DuoLookups } from './duo-lookups.js';
import type { DuoProviderDeps } from './duo-deps.js';
import { D100_TOKEN_TYPE, DUO_LOCKED_OUT_REASON, is400, is404, notSupported, phoneToDevice, tokenToDevice } from './duo-mapping.js';

export type DuoDevices = Pick<
  MfaProvider,
  | 'listDevices'
  | 'startTotpEnrolment'
  | 'confirmTotpEnrolment'
  | 'claimHardwareToken'
  | 'resyncHardwareToken'
  | 'releaseHardwareToken'
  | 'renameDevice'
  | 'deleteDevice'
>;

/**
 * The user's devices at Duo: phones, D100 hardware tokens, passkeys and security keys. Duo enrols no
 * third-party authenticator app (its way is a phone activated in Duo Mobile). A D100 is claimed by
 * serial, associated, then proven with two codes through the Auth API (Duo cannot tell whether they
 * are consecutive); without that proof the association goes again.
 */
export function duoDevices(deps: Pick<DuoProviderDeps, 'admin' | 'auth'>, lookups: DuoLookups): DuoDevices {
  const { admin, auth } = deps;
  const { userOrThrow, usableUser, devicesOf, requireAuthPreauth, deleteDeviceOf } = lookups;

  return {
    async listDevices(username) {
      return (await devicesOf(await userOrThrow(username))).devices;
    },

    async startTotpEnrolment() {
      throw notSupported('Duo does not enrol third-party authenticator apps; add a phone and activate Duo Mobile instead.');
    },

    async confirmTotpEnrolment() {
      throw notSupported('Duo does not enrol third-party authenticator apps; add a phone and activate Duo Mobile instead.');
    },

    async claimHardwareToken(username, input, opts) {
      const user = await usableUser(username);
      if (!opts.allowWhenDevicesExist && (await devicesOf(user)).devices.length > 0) throw new MfaError('has_devices');
      const serial = input.serial.trim();
      const [token] = await admin.findTokens(D100_TOKEN_TYPE, serial);
      if (!token) throw new MfaError('token_not_found', { field: 'serial' });
      if ((token.users?.length ?? 0) > 0) throw new MfaError('token_not_available', { field: 'serial' });

      await admin.associateToken(user.user_id, token.token_id);
      try {
        // Another user may have claimed it at the same moment: Duo would keep both associations.
        const [after] = await admin.findTokens(D100_TOKEN_TYPE, serial);
        if ((after?.users ?? []).some((u) => u.user_id !== user.user_id)) throw new MfaError('token_not_available', { field: 'serial' });
        // Possession: the two codes, in order, through the Auth API (which checks them against the
        // user's passcode sources, this token now among them, and never accepts a code twice).
        await requireAuthPreauth(user);
        for (const code of input.codes) {
          const result = await auth.passcode(user.user_id, code);
          if (result.result !== 'allow' || result.status !== 'allow') {
            if (result.status === 'locked_out') throw new MfaError('user_locked_out', { reason: DUO_LOCKED_OUT_REASON });
            throw new MfaError('code_invalid', { field: 'codes' });
          }
        }
      } catch (err) {
        // No proof, no token: the association goes again (best effort; the refusal is what matters).
        await admin.disassociateToken(user.user_id, token.token_id).catch(() => undefined);
        throw err;
      }
      return tokenToDevice(token, user);
    },

    async resyncHardwareToken(username, deviceId, codes) {
      const user = await usableUser(username);
      const found = (await devicesOf(user)).find(deviceId);
      if (!found) throw new MfaError('device_not_found');
      if (found.kind !== 'token') throw new MfaError('not_hardware_token');
      const [a, b, c] = codes;
      if (codes.length !== 3 || a === undefined || b === undefined || c === undefined)
        throw new MfaError('code_invalid', { field: 'codes' });
      try {
        await admin.resyncToken(found.token.token_id, [a, b, c]);
      } catch (err) {
        if (is400(err)) throw new MfaError('code_invalid', { field: 'codes' });
        if (is404(err)) throw new MfaError('device_not_found');
        throw err;
      }
      return found.device;
    },

    releaseHardwareToken(username, deviceId, opts) {
      return deleteDeviceOf(username, deviceId, opts.allowLast, true);
    },

    async renameDevice(username, deviceId, name) {
      const user = await usableUser(username);
      const found = (await devicesOf(user)).find(deviceId);
      if (!found) throw new MfaError('device_not_found');
      if (found.kind === 'webauthn') throw notSupported('Duo keeps the name given when the passkey or security key was enrolled.');
      if (found.kind !== 'phone') throw notSupported('Duo hardware tokens have no name; they are shown by type and serial.');
      try {
        return phoneToDevice(await admin.renamePhone(found.phone.phone_id, name), user);
      } catch (err) {
        if (is404(err)) throw new MfaError('device_not_found');
        throw err;
      }
    },

    deleteDevice(username, deviceId, opts) {
      return deleteDeviceOf(username, deviceId, opts.allowLast, false);
    },
  };
}
