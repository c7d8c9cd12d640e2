import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { BYPASS_CODE_LIMITS, type MfaData, type MfaStatus } from '@mfa-portal/shared';
import type { DuoConfig } from '../../config.js';
import { formatBypassCode, normalizeBypassCode, validateBypassRequest } from '../common/bypass-codes.js';
import { MfaError } from '../port.js';
import { verifyFailure } from '../common/verify-outcome.js';
import { duoAdminApi } from './admin-api.js';
import { duoAuthApi } from './auth-api.js';
import { DuoClient, type DuoLogger, type DuoRetryEvent } from './client.js';
import { duoAccountLifecycle } from './duo-lifecycle.js';
import { duoLookups } from './duo-lookups.js';
import {
  D100_TOKEN_TYPE,
  DUO_CANNOT_VERIFY_REASON,
  DUO_CAPABILITIES,
  DUO_LOCKED_OUT_REASON,
  DUO_WEBAUTHN_METHODS,
  fromUnix,
  is400,
  is404,
  isLimitReached,
  iso,
  notSupported,
  phoneToDevice,
  statusOf,
  toBypassInfo,
  tokenToDevice,
  type FoundDevice,
  type UserDevices,
} from './duo-mapping.js';
import { createDuoPhones } from './duo-phones.js';
import type { DuoMfaProvider, DuoProviderDeps } from './extras.js';
import { portalIdOf } from './ids.js';
import type { DuoUser } from './types.js';

export type { PhoneActivation, PushState } from '../port.js';
export type { DuoExtras, DuoMfaProvider, DuoProviderDeps } from './extras.js';
export {
  D100_TOKEN_TYPE,
  DUO_ACTIVATION_VALID_SECONDS,
  DUO_CANNOT_VERIFY_REASON,
  DUO_CAPABILITIES,
  DUO_LOCKED_OUT_REASON,
  DUO_NEVER_EXPIRES,
  DUO_PENDING_DELETION_REASON,
} from './duo-mapping.js';

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
 * - Administration: unlock is Modify User with `status=active`, for a locked-out user only; the account
 *   lifecycle (create, disable/enable, rename, delete: SCIM, just-in-time, admin screens) is duo-lifecycle.ts.
 */

export function createDuoProvider(deps: DuoProviderDeps): DuoMfaProvider {
  const { admin, auth } = deps;

  const lookups = duoLookups(deps);
  const { findUser, userOrThrow, usableUser, devicesOf, liveBypassCodes, requireAuthPreauth, deleteDeviceOf } = lookups;

  const provider: DuoMfaProvider = {
    name: 'duo',
    capabilities: DUO_CAPABILITIES,
    lifecycle: duoAccountLifecycle(admin),

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
      return {
        provider: 'duo',
        status: status satisfies MfaStatus,
        statusReason,
        devices: devices.devices,
        bypassCodes: { active: codes.length, nextExpiresAt: expiries.length ? iso(fromUnix(Math.min(...expiries))) : null },
      } satisfies MfaData;
    },
    ...DUO_WEBAUTHN_METHODS,

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

    async createBypassCodes(username, request, opts = {}) {
      const now = opts.now ?? new Date();
      const [problem] = validateBypassRequest(request);
      if (problem) throw new MfaError('bypass_invalid_request', { field: problem.field, reason: problem.code });
      const user = await usableUser(username);
      const before = await liveBypassCodes(user, now);
      if (!request.replaceExisting && before.length + request.count > BYPASS_CODE_LIMITS.maxLivePerUser)
        throw new MfaError('too_many_live_codes', { field: 'count' });

      let codes: string[];
      try {
        codes = await admin.createBypassCodes(user.user_id, {
          count: request.count,
          validSecs: request.validitySeconds,
          reuseCount: request.reuseCount,
          preserveExisting: !request.replaceExisting,
        });
      } catch (err) {
        if (isLimitReached(err))
          throw new MfaError('limit_reached', { reason: 'Duo holds as many bypass codes for this user as it allows' });
        throw err;
      }
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
        // Listed a moment ago, gone meanwhile (used up, or revoked elsewhere): done all the same.
        if (!is404(err)) throw err;
      }
      return toBypassInfo(code);
    },

    async eachUserPage(onPage, beforeCall) {
      await admin.eachUserPage(
        (users) =>
          onPage(
            users.map((u) => ({ username: u.username, email: u.email ?? '', realName: u.realname ?? '', status: statusOf(u).status })),
          ),
        beforeCall,
      );
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

    duo: createDuoPhones(deps, lookups),
  };
  return provider;
}

/** The Duo adapter for a configuration: an Admin API client and an Auth API client. */
export function createDuoProviderFromConfig(
  config: DuoConfig,
  options: { logger?: DuoLogger; onRetry?: (retry: DuoRetryEvent) => void } = {},
): DuoMfaProvider {
  const ca = config.caFile ? fs.readFileSync(config.caFile, 'utf8') : undefined;
  const common = {
    signatureVersion: config.signatureVersion,
    timeoutMs: config.timeoutMs,
    retry: config.retry,
    ca,
    logger: options.logger,
    onRetry: options.onRetry,
  };
  const adminClient = new DuoClient({ ...common, ...config.admin });
  const authClient = new DuoClient({ ...common, ...config.auth });
  return createDuoProvider({ admin: duoAdminApi(adminClient), auth: duoAuthApi(authClient) });
}
