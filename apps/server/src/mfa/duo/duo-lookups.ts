import type { Device } from '@mfa-portal/shared';
import { MfaError } from '../port.js';
import {
  assertUsable,
  byCreated,
  DUO_CANNOT_VERIFY_REASON,
  is404,
  isLive,
  notSupported,
  phoneToDevice,
  tokenToDevice,
  webauthnToDevice,
  type FoundDevice,
  type UserDevices,
} from './duo-mapping.js';
import type { DuoProviderDeps } from './duo-deps.js';
import type { DuoBypassCode, DuoPhone, DuoUser } from './types.js';

/** Reads the adapter's operations share: the user (and whether usable), their devices and codes, a device removal. */
export function duoLookups(deps: DuoProviderDeps) {
  const { admin, auth } = deps;

  async function findUser(username: string): Promise<DuoUser | null> {
    return admin.findUserByUsername(username);
  }

  async function userOrThrow(username: string): Promise<DuoUser> {
    const user = await findUser(username);
    if (!user) throw new MfaError('not_provisioned');
    return user;
  }

  async function usableUser(username: string): Promise<DuoUser> {
    const user = await userOrThrow(username);
    assertUsable(user);
    return user;
  }

  async function devicesOf(user: DuoUser): Promise<UserDevices> {
    const [phones, tokens, credentials] = await Promise.all([
      admin.listUserPhones(user.user_id),
      admin.listUserTokens(user.user_id),
      admin.listUserWebauthnCredentials(user.user_id),
    ]);
    const found: FoundDevice[] = [
      ...phones.map((phone): FoundDevice => ({ kind: 'phone', phone, device: phoneToDevice(phone, user) })),
      ...tokens.map((token): FoundDevice => ({ kind: 'token', token, device: tokenToDevice(token, user) })),
      ...credentials.map((credential): FoundDevice => ({ kind: 'webauthn', credential, device: webauthnToDevice(credential, user) })),
    ];
    return { phones, tokens, devices: found.map((f) => f.device), find: (deviceId) => found.find((f) => f.device.id === deviceId) ?? null };
  }

  async function liveBypassCodes(user: DuoUser, now: Date): Promise<DuoBypassCode[]> {
    return (await admin.listBypassCodes(user.user_id)).filter((c) => isLive(c, now)).sort(byCreated);
  }

  async function phoneOf(username: string, deviceId: string): Promise<{ user: DuoUser; phone: DuoPhone; device: Device }> {
    const user = await usableUser(username);
    const found = (await devicesOf(user)).find(deviceId);
    if (!found) throw new MfaError('device_not_found');
    if (found.kind !== 'phone') throw notSupported('Only phones can be activated in Duo Mobile or receive a push.');
    return { user, phone: found.phone, device: found.device };
  }

  /** The Auth API must agree to check a factor: `allow` (bypass status, a policy) would let anything through. */
  async function requireAuthPreauth(
    user: DuoUser,
    opts: { ipaddr?: string | null; verifiedPush?: boolean } = {},
  ): Promise<{ result: 'auth' | 'enroll'; txid: string | null }> {
    const pre = await auth.preauth(user.user_id, opts);
    if (pre.result === 'auth' || pre.result === 'enroll') return { result: pre.result, txid: pre.txid || null };
    if (pre.result === 'allow') throw new MfaError('verification_unsupported', { reason: DUO_CANNOT_VERIFY_REASON });
    throw new MfaError('user_disabled', { reason: pre.status_msg || 'Duo denies this user' });
  }

  async function deleteDeviceOf(username: string, deviceId: string, allowLast: boolean, onlyTokens: boolean): Promise<Device> {
    const user = await usableUser(username);
    const devices = await devicesOf(user);
    const found = devices.find(deviceId);
    if (!found) throw new MfaError('device_not_found');
    if (onlyTokens && found.kind !== 'token') throw new MfaError('not_hardware_token');
    if (!allowLast && devices.devices.length <= 1) throw new MfaError('last_device');
    try {
      if (found.kind === 'webauthn') {
        await admin.deleteWebauthnCredential(found.credential.webauthnkey);
      } else if (found.kind === 'token') {
        // The token stays in Duo's inventory (its counter with it), free to be claimed again.
        await admin.disassociateToken(user.user_id, found.token.token_id);
      } else {
        // A phone shared with other users loses only this user's association; otherwise it goes.
        const phone = await admin.getPhone(found.phone.phone_id);
        if ((phone.users ?? []).some((u) => u.user_id !== user.user_id)) await admin.disassociatePhone(user.user_id, found.phone.phone_id);
        else await admin.deletePhone(found.phone.phone_id);
      }
    } catch (err) {
      // It was listed a moment ago: gone meanwhile, which is what was asked.
      if (is404(err)) return found.device;
      throw err;
    }
    return found.device;
  }

  return { findUser, userOrThrow, usableUser, devicesOf, liveBypassCodes, phoneOf, requireAuthPreauth, deleteDeviceOf };
}

export type DuoLookups = ReturnType<typeof duoLookups>;
