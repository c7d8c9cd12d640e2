import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import {
  BYPASS_CODE_LIMITS,
  type BypassCodeInfo,
  type Device,
  type DeviceCapability,
  type MfaData,
  type MfaStatus,
} from '@mfa-portal/shared';
import type { DuoConfig } from '../../config.js';
import { AppError } from '../../lib/errors.js';
import { maskPhoneNumber } from '../builtin/builtin-provider.js';
import { formatBypassCode, normalizeBypassCode, validateBypassRequest } from '../builtin/bypass-codes.js';
import { qrCodeSvg } from '../builtin/otp.js';
import {
  MfaError,
  type MfaAccount,
  type MfaProvider,
  type PhoneActivation,
  type ProviderCapabilities,
  type PushState,
  type VerifyFailure,
  type VerifyOutcome,
} from '../port.js';

export type { PhoneActivation, PushState } from '../port.js';
import { duoAdminApi, type DuoAdminApi } from './admin-api.js';
import { duoAuthApi, type DuoAuthApi } from './auth-api.js';
import { DuoClient, type DuoLogger } from './client.js';
import { DuoApiError } from './errors.js';
import { portalIdOf } from './ids.js';
import type { DuoBypassCode, DuoPhone, DuoToken, DuoUser } from './types.js';

/**
 * The Duo adapter of the MfaProvider port (MFA_PROVIDER=duo): the Admin API holds users, phones,
 * hardware tokens and bypass codes; the Auth API checks passcodes and sends pushes. Nothing is stored
 * in the portal's database. README.md ("Duo Security") has the full mapping; in short:
 *
 * - Users are looked up by username (or alias) at every call; Duo's status maps to the portal's
 *   (`locked out` → locked_out, `pending deletion` → disabled), absence to not_provisioned.
 * - Devices are the user's phones and hardware tokens; their portal ids are derived from Duo's ids
 *   (ids.ts), so an id of another user's device is simply not found among this user's.
 * - Authenticator-app (TOTP) enrolment has no Duo equivalent: `mfa.not_supported_by_provider`
 *   (Duo's way is a phone activated in Duo Mobile: `duo.addPhone` + `duo.phoneActivation`).
 * - Claiming a D100: find the `d1` token by serial, associate it, prove possession with the two codes
 *   through the Auth API (passcode factor: each must be valid, unused and after the previous one; Duo
 *   cannot tell whether they are consecutive), undo the association if they fail.
 * - Passcodes and bypass codes are checked by the Auth API (preauth, then auth with factor=passcode):
 *   Duo applies its own lockout and single use; the portal still rate-limits before calling.
 * - Duo has no transactions: "first device" and "not the last device" are checked just before the
 *   change, not atomically with it (two concurrent requests of one user could both pass).
 * - Administration: a search reads Duo's whole user list (every page) and filters it here, since Duo
 *   looks users up by exact username only; unlock is Modify User with `status=active`, for a locked-out
 *   user only.
 */

/** The reason shown for a Duo lockout when Duo gives none. */
export const DUO_LOCKED_OUT_REASON = 'Locked out by Duo after too many failed attempts';
export const DUO_PENDING_DELETION_REASON = 'Pending deletion at Duo';
/** Why a verification fails when Duo would let the user in without checking any code. */
export const DUO_CANNOT_VERIFY_REASON =
  'Duo lets this user in without a second factor (bypass status or policy), so it cannot check a code';
/** `createdBy` of a bypass code Duo does not attribute. */
export const DUO_BYPASS_CREATED_BY = 'Duo Admin API';
/** A code created outside the portal that never expires (Duo `expiration: null`): shown with this expiry. */
export const DUO_NEVER_EXPIRES = new Date('9999-12-31T23:59:59.000Z');
/** A code created outside the portal with unlimited uses (Duo `reuse_count: 0`): shown with this many uses left. */
export const DUO_UNLIMITED_USES = 2_147_483_647;
/** Validity of an activation link made for the portal (Duo's own default). */
export const DUO_ACTIVATION_VALID_SECONDS = 24 * 60 * 60;
export const D100_TOKEN_TYPE = 'd1';

const TOKEN_TYPE_LABELS: Record<string, string> = {
  d1: 'Duo D100',
  h6: 'HOTP (6 digits)',
  h8: 'HOTP (8 digits)',
  t6: 'TOTP (6 digits)',
  t8: 'TOTP (8 digits)',
  yk: 'YubiKey (AES)',
};
const PLATFORM_TO_PORTAL: Record<string, string> = {
  'apple ios': 'iOS',
  'google android': 'Android',
  'windows phone': 'Windows Phone',
  'generic smartphone': 'Generic smartphone',
};
const PLATFORM_TO_DUO: Record<string, string> = {
  ios: 'apple ios',
  android: 'google android',
  'windows phone': 'windows phone',
  'generic smartphone': 'generic smartphone',
};

const E164 = /^\+[1-9][0-9]{6,14}$/;

/** What Duo can do through the port: phones, Duo Mobile activation (QR or SMS), pushes; no authenticator-app enrolment. */
export const DUO_CAPABILITIES: ProviderCapabilities = Object.freeze({
  phones: true,
  smsActivation: true,
  push: true,
  totp: false,
  hardwareTokens: true,
  renameHardwareTokens: false,
});

/** Duo's phone and push operations with their Duo-specific options (the port's methods call these). */
export interface DuoExtras {
  /** Adds a phone (E.164 number, platform) and associates it with the user; refuses (`has_devices`) a second device without step-up. */
  addPhone(
    username: string,
    input: { number: string; platform: string; name?: string; type?: 'mobile' | 'landline' },
    opts: { allowWhenDevicesExist: boolean },
  ): Promise<Device>;
  /** A Duo Mobile activation link and QR code for one of the user's phones. */
  phoneActivation(
    username: string,
    deviceId: string,
    opts?: { validSeconds?: number; install?: boolean; now?: Date },
  ): Promise<PhoneActivation>;
  /** Sends the activation link to the phone by SMS. */
  sendSmsActivation(
    username: string,
    deviceId: string,
    opts?: { validSeconds?: number; install?: boolean; now?: Date },
  ): Promise<{ expiresAt: Date }>;
  /** A push to one of the user's phones (Auth API, asynchronous); poll with `pushStatus`. */
  startPush(username: string, deviceId: string, opts?: { type?: string; pushinfo?: string }): Promise<{ txid: string }>;
  pushStatus(txid: string): Promise<PushState>;
  /** Helpdesk identity check: a verification push to the user's phone, with the code it shows. */
  sendVerificationPush(username: string, deviceId: string): Promise<{ pushId: string; confirmationCode: string }>;
  verificationPushResponse(username: string, pushId: string): Promise<PushState>;
}

export interface DuoMfaProvider extends MfaProvider {
  readonly name: 'duo';
  readonly duo: DuoExtras;
}

export interface DuoProviderDeps {
  admin: DuoAdminApi;
  auth: DuoAuthApi;
}

const notSupported = (reason: string) => new AppError(409, 'mfa.not_supported_by_provider', undefined, { reason });
const iso = (d: Date) => d.toISOString();
const fromUnix = (seconds: number) => new Date(seconds * 1000);

function statusOf(user: DuoUser): Pick<MfaAccount, 'status' | 'statusReason'> {
  switch (user.status.toLowerCase()) {
    case 'active':
      return { status: 'active', statusReason: null };
    case 'bypass':
      return { status: 'bypass', statusReason: null };
    case 'disabled':
      return { status: 'disabled', statusReason: null };
    case 'locked out':
      return { status: 'locked_out', statusReason: user.lockout_reason || DUO_LOCKED_OUT_REASON };
    case 'pending deletion':
      return { status: 'disabled', statusReason: DUO_PENDING_DELETION_REASON };
    default:
      // A status this adapter does not know: refuse rather than let the user act.
      return { status: 'disabled', statusReason: `Duo status "${user.status}"` };
  }
}

/** Refuses changes for a disabled or locked-out user (bypass status may manage devices). */
function assertUsable(user: DuoUser): void {
  const { status, statusReason } = statusOf(user);
  if (status === 'disabled') throw new MfaError('user_disabled', statusReason ? { reason: statusReason } : {});
  if (status === 'locked_out') throw new MfaError('user_locked_out', statusReason ? { reason: statusReason } : {});
}

function phoneCapabilities(phone: DuoPhone): DeviceCapability[] {
  const caps: DeviceCapability[] = [];
  if (phone.capabilities.includes('push')) caps.push('push');
  // Duo Mobile passcodes (6 digits). SMS passcodes have 7 digits, which the portal's forms refuse.
  if (phone.capabilities.includes('mobile_otp')) caps.push('passcode');
  return caps;
}

function platformLabel(platform: string): string | null {
  const p = platform.trim();
  if (!p || p.toLowerCase() === 'unknown') return null;
  return PLATFORM_TO_PORTAL[p.toLowerCase()] ?? p;
}

/** Duo's `last_seen` (`YYYY-MM-DDTHH:MM:SS`, UTC) as ISO, or null. */
function lastSeen(value: string | undefined): string | null {
  if (!value) return null;
  const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * Duo records when a user was created, not when a phone or token was added: devices carry the user's
 * creation time (a lower bound), or the epoch when Duo gives none.
 */
const createdAtOf = (user: DuoUser) => iso(fromUnix(user.created ?? 0));

function phoneToDevice(phone: DuoPhone, user: DuoUser): Device {
  const masked = maskPhoneNumber(phone.number || null);
  return {
    id: portalIdOf('phone', phone.phone_id),
    kind: 'phone',
    name: phone.name?.trim() || (masked ? `Phone ${masked}` : 'Phone'),
    capabilities: phoneCapabilities(phone),
    phoneNumber: masked,
    platform: platformLabel(phone.platform),
    serial: null,
    tokenType: null,
    createdAt: createdAtOf(user),
    lastUsedAt: lastSeen(phone.last_seen),
  };
}

function tokenToDevice(token: DuoToken, user: DuoUser): Device {
  const label = TOKEN_TYPE_LABELS[token.type] ?? token.type;
  return {
    id: portalIdOf('token', token.token_id),
    kind: 'hardware_token',
    name: `${label} (${token.serial})`,
    capabilities: ['passcode'],
    phoneNumber: null,
    platform: null,
    serial: token.serial,
    tokenType: label,
    createdAt: createdAtOf(user),
    lastUsedAt: null,
  };
}

function isLive(code: DuoBypassCode, now: Date): boolean {
  return code.expiration === null || code.expiration * 1000 > now.getTime();
}

function toBypassInfo(code: DuoBypassCode): BypassCodeInfo {
  return {
    id: portalIdOf('bypass_code', code.bypass_code_id),
    createdAt: iso(fromUnix(code.created)),
    expiresAt: iso(code.expiration === null ? DUO_NEVER_EXPIRES : fromUnix(code.expiration)),
    usesLeft: code.reuse_count === 0 ? DUO_UNLIMITED_USES : code.reuse_count,
    // Duo reports the uses left, not the count the code was created with.
    reuseCount: null,
    createdBy: code.admin_email || DUO_BYPASS_CREATED_BY,
  };
}

const byCreated = (a: DuoBypassCode, b: DuoBypassCode) => a.created - b.created || (a.bypass_code_id < b.bypass_code_id ? -1 : 1);

type FoundDevice = { kind: 'phone'; phone: DuoPhone; device: Device } | { kind: 'token'; token: DuoToken; device: Device };

interface UserDevices {
  phones: DuoPhone[];
  tokens: DuoToken[];
  devices: Device[];
  find(deviceId: string): FoundDevice | null;
}

const is404 = (err: unknown) => err instanceof DuoApiError && err.httpStatus === 404;
const is400 = (err: unknown) => err instanceof DuoApiError && err.httpStatus === 400;

export function createDuoProvider(deps: DuoProviderDeps): DuoMfaProvider {
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
    const [phones, tokens] = await Promise.all([admin.listUserPhones(user.user_id), admin.listUserTokens(user.user_id)]);
    const found: FoundDevice[] = [
      ...phones.map((phone): FoundDevice => ({ kind: 'phone', phone, device: phoneToDevice(phone, user) })),
      ...tokens.map((token): FoundDevice => ({ kind: 'token', token, device: tokenToDevice(token, user) })),
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
  async function requireAuthPreauth(user: DuoUser): Promise<'auth' | 'enroll'> {
    const pre = await auth.preauth(user.user_id);
    if (pre.result === 'auth' || pre.result === 'enroll') return pre.result;
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
      if (found.kind === 'token') {
        // The token stays in Duo's inventory (its counter with it), free to be claimed again.
        await admin.disassociateToken(user.user_id, found.token.token_id);
      } else {
        // A phone shared with other users loses only this user's association; otherwise it goes.
        const phone = await admin.getPhone(found.phone.phone_id);
        if ((phone.users ?? []).some((u) => u.user_id !== user.user_id)) await admin.disassociatePhone(user.user_id, found.phone.phone_id);
        else await admin.deletePhone(found.phone.phone_id);
      }
    } catch (err) {
      if (is404(err)) throw new MfaError('device_not_found');
      throw err;
    }
    return found.device;
  }

  const failure = (reason: VerifyFailure, extra: Partial<Extract<VerifyOutcome, { ok: false }>> = {}): VerifyOutcome => ({
    ok: false,
    reason,
    justLocked: false,
    retryAfterSeconds: null,
    statusReason: null,
    ...extra,
  });

  const provider: DuoMfaProvider = {
    name: 'duo',
    capabilities: DUO_CAPABILITIES,

    addPhone: (username, input, opts) => provider.duo.addPhone(username, input, opts),
    phoneActivation: (username, deviceId, opts) => provider.duo.phoneActivation(username, deviceId, opts),
    sendSmsActivation: (username, deviceId, opts) => provider.duo.sendSmsActivation(username, deviceId, opts),
    startPush: (username, deviceId, opts) => provider.duo.startPush(username, deviceId, opts),
    // Duo's auth_status knows only the txid: the portal's push_transaction table binds each txid to its
    // user before anyone asks, so a poll (every 2 s) costs one Auth API call and no Admin API lookup.
    pushStatus: (_username, txid) => provider.duo.pushStatus(txid),
    sendVerificationPush: (username, deviceId) => provider.duo.sendVerificationPush(username, deviceId),
    verificationPushResponse: (username, pushId) => provider.duo.verificationPushResponse(username, pushId),

    async getUserData(username, now = new Date()) {
      const user = await findUser(username);
      if (!user)
        return {
          provider: 'duo',
          status: 'not_provisioned',
          statusReason: null,
          devices: [],
          bypassCodes: { active: 0, nextExpiresAt: null },
        };
      const [devices, codes] = await Promise.all([devicesOf(user), liveBypassCodes(user, now)]);
      const expiries = codes.flatMap((c) => (c.expiration === null ? [] : [c.expiration]));
      const { status, statusReason } = statusOf(user);
      const data: MfaData = {
        provider: 'duo',
        status: status satisfies MfaStatus,
        statusReason,
        devices: devices.devices,
        bypassCodes: { active: codes.length, nextExpiresAt: expiries.length ? iso(fromUnix(Math.min(...expiries))) : null },
      };
      return data;
    },

    async getAccount(username) {
      const user = await findUser(username);
      if (!user) return null;
      // The user object lists its phones and tokens; read the lists when it does not.
      const deviceCount =
        Array.isArray(user.phones) && Array.isArray(user.tokens)
          ? user.phones.length + user.tokens.length
          : (await devicesOf(user)).devices.length;
      // Duo does not say when a lockout ends (an account-wide setting, or an administrator).
      return { ...statusOf(user), lockedUntil: null, deviceCount };
    },

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

    async verifyPasscode(username, code, opts = {}) {
      const methods = opts.methods ?? ['passcode', 'bypass'];
      const user = await findUser(username);
      if (!user) return failure('not_provisioned');
      const { status, statusReason } = statusOf(user);
      if (status === 'disabled') return failure('user_disabled', { statusReason });
      if (status === 'locked_out') return failure('user_locked_out', { statusReason });
      // Duo lets a user in bypass status through with any code: nothing can verify one for them.
      if (status === 'bypass') return failure('no_factor', { statusReason: DUO_CANNOT_VERIFY_REASON });

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
      if (passcode === null && bypass === null) return failure('code_invalid');

      let passcodeDevices: FoundDevice[] = [];
      if (passcode !== null) {
        devices ??= await devicesOf(user);
        passcodeDevices = target
          ? [target]
          : devices.devices.flatMap((d) => (d.capabilities.includes('passcode') ? [devices!.find(d.id)!] : []));
        if (passcodeDevices.length === 0) return failure('no_factor');
      }

      const pre = await auth.preauth(user.user_id);
      if (pre.result === 'allow') return failure('no_factor', { statusReason: DUO_CANNOT_VERIFY_REASON });
      if (pre.result === 'deny') return failure('user_disabled', { statusReason: pre.status_msg || null });
      if (pre.result === 'enroll' && passcode !== null) return failure('no_factor');

      const result = await auth.passcode(user.user_id, passcode ?? bypass!);
      if (result.result === 'allow' && result.status === 'allow') {
        if (bypass !== null) return { ok: true, method: 'bypass', deviceId: null, bypassId: null };
        // Duo does not say which device gave the code: named when it is the one asked for, or the only one.
        const only = passcodeDevices.length === 1 ? passcodeDevices[0]! : null;
        return { ok: true, method: 'hotp', deviceId: only?.device.id ?? null, bypassId: null };
      }
      // Allowed without the code being checked (a policy, a bypass status set meanwhile): not a verification.
      if (result.result === 'allow') return failure('no_factor', { statusReason: DUO_CANNOT_VERIFY_REASON });
      if (result.status === 'locked_out' || /locked/i.test(result.status_msg ?? '')) {
        const locked = await findUser(username);
        return failure('user_locked_out', {
          justLocked: true,
          statusReason: (locked && statusOf(locked).statusReason) || DUO_LOCKED_OUT_REASON,
        });
      }
      // A wrong code, or a right one used before: Duo does not tell them apart.
      return failure('code_invalid');
    },

    async createBypassCodes(username, request, opts = {}) {
      const now = opts.now ?? new Date();
      const [problem] = validateBypassRequest(request);
      if (problem) throw new MfaError('bypass_invalid_request', { field: problem.field, reason: problem.code });
      const user = await usableUser(username);
      const before = await liveBypassCodes(user, now);
      if (!request.replaceExisting && before.length + request.count > BYPASS_CODE_LIMITS.maxLivePerUser)
        throw new MfaError('too_many_live_codes', { field: 'count' });

      const codes = await admin.createBypassCodes(user.user_id, {
        count: request.count,
        validSecs: request.validitySeconds,
        reuseCount: request.reuseCount,
        preserveExisting: !request.replaceExisting,
      });
      // Duo answers with the codes only. Their ids are the ones new in the list; Duo does not say which
      // id is which code, so they are paired in order (all share the same expiry and uses).
      const known = new Set(before.map((c) => c.bypass_code_id));
      const fresh = (await liveBypassCodes(user, now)).filter((c) => !known.has(c.bypass_code_id));
      const fallbackExpiry = new Date(now.getTime() + request.validitySeconds * 1000);
      return {
        codes: codes.map((code, i) => {
          const meta = fresh[i];
          return {
            id: meta ? portalIdOf('bypass_code', meta.bypass_code_id) : randomUUID(),
            code: normalizeBypassCode(code) ? formatBypassCode(code) : code,
            expiresAt: meta?.expiration ? fromUnix(meta.expiration) : fallbackExpiry,
            usesLeft: request.reuseCount,
          };
        }),
        replaced: request.replaceExisting ? before.length : 0,
      };
    },

    async listBypassCodes(username, opts = {}) {
      const user = await userOrThrow(username);
      return (await liveBypassCodes(user, opts.now ?? new Date())).map(toBypassInfo);
    },

    async revokeBypassCode(username, id, opts = {}) {
      const user = await usableUser(username);
      const code = (await liveBypassCodes(user, opts.now ?? new Date())).find((c) => portalIdOf('bypass_code', c.bypass_code_id) === id);
      if (!code) throw new MfaError('bypass_not_found');
      try {
        await admin.deleteBypassCode(code.bypass_code_id);
      } catch (err) {
        if (is404(err)) throw new MfaError('bypass_not_found');
        throw err;
      }
      return toBypassInfo(code);
    },

    async searchUsers(query, page) {
      // Duo's Admin API looks users up by exact username only: the portal reads the whole list (every
      // page) and keeps those whose username, alias, email or real name contains the query, by username;
      // the cursor is the last username of the page before.
      const q = query.trim().toLowerCase();
      const matches = (await admin.listUsers())
        .filter((u) => {
          if (!q) return true;
          const aliases = [u.alias1, u.alias2, u.alias3, u.alias4].filter((a): a is string => typeof a === 'string');
          return [u.username, u.email ?? '', u.realname ?? '', ...aliases].some((v) => v.toLowerCase().includes(q));
        })
        .sort((a, b) =>
          a.username.toLowerCase() < b.username.toLowerCase() ? -1 : a.username.toLowerCase() > b.username.toLowerCase() ? 1 : 0,
        );
      const after = page.cursor?.toLowerCase();
      const rest = after === undefined ? matches : matches.filter((u) => u.username.toLowerCase() > after);
      const users = rest.slice(0, page.limit).map((user) => ({
        username: user.username,
        email: user.email ?? '',
        realName: user.realname ?? '',
        status: statusOf(user).status,
      }));
      return { users, nextCursor: rest.length > page.limit ? (users.at(-1)?.username ?? null) : null };
    },

    async unlockUser(username) {
      const user = await userOrThrow(username);
      const devices = () =>
        Array.isArray(user.phones) && Array.isArray(user.tokens)
          ? Promise.resolve(user.phones.length + user.tokens.length)
          : devicesOf(user).then((d) => d.devices.length);
      // Only a lockout ends; a disabled (or bypass) user stays as the Duo administrators set them.
      if (user.status.toLowerCase() !== 'locked out') return { ...statusOf(user), lockedUntil: null, deviceCount: await devices() };
      let after: DuoUser;
      try {
        after = await admin.setUserStatus(user.user_id, 'active');
      } catch (err) {
        if (is404(err)) throw new MfaError('not_provisioned');
        throw err;
      }
      return { ...statusOf(after), lockedUntil: null, deviceCount: await devices() };
    },

    duo: {
      async addPhone(username, input, opts) {
        const number = input.number.replace(/[\s().-]/g, '');
        if (!E164.test(number))
          throw new AppError(400, 'request.invalid', undefined, {
            field: 'number',
            reason: 'must be an international number such as +15555550100',
          });
        const user = await usableUser(username);
        if (!opts.allowWhenDevicesExist && (await devicesOf(user)).devices.length > 0) throw new MfaError('has_devices');
        const platform = PLATFORM_TO_DUO[input.platform.trim().toLowerCase()] ?? 'generic smartphone';
        const phone = await admin.createPhone({ number, name: input.name?.trim() ?? '', type: input.type ?? 'mobile', platform });
        try {
          await admin.associatePhone(user.user_id, phone.phone_id);
        } catch (err) {
          await admin.deletePhone(phone.phone_id).catch(() => undefined);
          throw err;
        }
        return phoneToDevice(phone, user);
      },

      async phoneActivation(username, deviceId, opts = {}) {
        const { phone } = await phoneOf(username, deviceId);
        const validSecs = opts.validSeconds ?? DUO_ACTIVATION_VALID_SECONDS;
        const now = opts.now ?? new Date();
        const a = await admin.createActivationUrl(phone.phone_id, { validSecs, install: opts.install ?? false });
        let value: string | null = null;
        try {
          value = new URL(a.activation_barcode).searchParams.get('value');
        } catch {
          value = null;
        }
        return {
          activationUrl: a.activation_url,
          activationBarcodeUrl: a.activation_barcode,
          qrSvg: value ? await qrCodeSvg(value) : null,
          installationUrl: a.installation_url || null,
          expiresAt: new Date(now.getTime() + (a.valid_secs || validSecs) * 1000),
        };
      },

      async sendSmsActivation(username, deviceId, opts = {}) {
        const { phone } = await phoneOf(username, deviceId);
        const validSecs = opts.validSeconds ?? DUO_ACTIVATION_VALID_SECONDS;
        const now = opts.now ?? new Date();
        const a = await admin.sendSmsActivation(phone.phone_id, { validSecs, install: opts.install ?? true });
        return { expiresAt: new Date(now.getTime() + (a.valid_secs || validSecs) * 1000) };
      },

      async startPush(username, deviceId, opts = {}) {
        const { user, phone, device } = await phoneOf(username, deviceId);
        if (!device.capabilities.includes('push'))
          throw new MfaError('verification_unsupported', { reason: 'This phone cannot receive pushes (Duo Mobile is not activated)' });
        await requireAuthPreauth(user);
        return auth.push(user.user_id, phone.phone_id, opts);
      },

      async pushStatus(txid) {
        const s = await auth.status(txid);
        if (s.result === 'waiting') return { state: 'waiting', detail: s.status_msg || null };
        if (s.result === 'allow') return { state: 'approved', detail: s.status_msg || null };
        if (s.status === 'fraud') return { state: 'fraud', detail: s.status_msg || null };
        if (s.status === 'timeout') return { state: 'timeout', detail: s.status_msg || null };
        return { state: 'denied', detail: s.status_msg || null };
      },

      async sendVerificationPush(username, deviceId) {
        const { user, phone, device } = await phoneOf(username, deviceId);
        if (!device.capabilities.includes('push'))
          throw new MfaError('verification_unsupported', { reason: 'This phone cannot receive pushes (Duo Mobile is not activated)' });
        const push = await admin.sendVerificationPush(user.user_id, phone.phone_id);
        return { pushId: push.push_id, confirmationCode: push.confirmation_code };
      },

      async verificationPushResponse(username, pushId) {
        const user = await userOrThrow(username);
        const r = await admin.verificationPushResponse(user.user_id, pushId);
        const state: PushState['state'] =
          r.result === 'approve'
            ? 'approved'
            : r.result === 'waiting'
              ? 'waiting'
              : r.result === 'fraud'
                ? 'fraud'
                : r.result === 'deny'
                  ? 'denied'
                  : 'timeout';
        return { state, detail: r.result };
      },
    },
  };
  return provider;
}

/** The Duo adapter for a configuration: an Admin API client and an Auth API client. */
export function createDuoProviderFromConfig(config: DuoConfig, options: { logger?: DuoLogger } = {}): DuoMfaProvider {
  const ca = config.caFile ? fs.readFileSync(config.caFile, 'utf8') : undefined;
  const common = {
    signatureVersion: config.signatureVersion,
    timeoutMs: config.timeoutMs,
    retry: config.retry,
    ca,
    logger: options.logger,
  };
  const adminClient = new DuoClient({ ...common, ...config.admin });
  const authClient = new DuoClient({ ...common, ...config.auth });
  return createDuoProvider({ admin: duoAdminApi(adminClient), auth: duoAuthApi(authClient) });
}
