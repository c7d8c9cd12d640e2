import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { TOTP_ENROLMENT_TTL_SECONDS, type Device, type MfaData } from '@mfa-portal/shared';
import type { Database } from '../../db/schema.js';
import { bypassExpiresAt, formatBypassCode, generateBypassCode, hashBypassCode, validateBypassRequest } from '../common/bypass-codes.js';
import { generateTotpSecret, otpauthUri, qrCodeSvg, verifyHotpSequence, verifyTotp } from '../common/otp.js';
import type { MfaKeys } from '../mfa-keys.js';
import { MfaError, type MfaProvider } from '../port.js';
import { builtinAccountLifecycle } from './account-lifecycle.js';
import {
  assertUsable,
  BUILTIN_CAPABILITIES,
  BUILTIN_NO_PHONE_CHANNEL,
  BYPASS_INSERT_ATTEMPTS,
  deviceSecretAad,
  effectiveStatus,
  enrolmentSecretAad,
  iso,
  MAX_PENDING_ENROLMENTS,
  RESYNC_LOOK_AHEAD,
  toBypassInfo,
  toDevice,
  tokenSeedAad,
  type UserRow,
} from './builtin-mapping.js';
import { builtinRepository, type BuiltinRepository } from './builtin.repository.js';
import { builtinWebauthn } from './builtin-webauthn.js';
import { webauthnCredentialRepository } from './webauthn.repository.js';
import { DEFAULT_LOCKOUT_POLICY, type LockoutPolicy } from './lockout.js';
import { verifyBuiltinPasscode } from './verify-passcode.js';

export {
  BUILTIN_CAPABILITIES,
  BUILTIN_NO_PHONE_CHANNEL,
  deviceSecretAad,
  enrolmentSecretAad,
  LOCKOUT_STATUS_REASON,
  MAX_PENDING_ENROLMENTS,
  RESYNC_LOOK_AHEAD,
  toDevice,
  tokenSeedAad,
} from './builtin-mapping.js';

/**
 * The builtin MFA provider: the portal's own store (PostgreSQL/PGlite) of authenticator apps and
 * Duo D100 hardware tokens, bypass codes and lockouts. Secrets are sealed at rest (secret box);
 * bypass codes are kept as peppered hashes. The code check is verify-passcode.ts.
 */
export interface BuiltinProviderOptions {
  keys: Pick<MfaKeys, 'box' | 'bypassPepper'>;
  lockout?: LockoutPolicy;
}

export function createBuiltinProvider(db: Kysely<Database>, options: BuiltinProviderOptions): MfaProvider {
  const repo = builtinRepository(db);
  const { box, bypassPepper } = options.keys;
  const policy = options.lockout ?? DEFAULT_LOCKOUT_POLICY;
  const tx = <T>(fn: (trx: BuiltinRepository) => Promise<T>): Promise<T> => db.transaction().execute((trx) => fn(builtinRepository(trx)));

  async function userOrThrow(username: string): Promise<UserRow> {
    const user = await repo.findUserByUsername(username);
    if (!user) throw new MfaError('not_provisioned');
    return user;
  }

  async function deleteDeviceOf(username: string, deviceId: string, allowLast: boolean, onlyTokens: boolean, now: Date): Promise<Device> {
    return tx(async (r) => {
      const user = await r.lockUserByUsername(username);
      assertUsable(user, now);
      const device = await r.findDevice(user.id, deviceId);
      if (!device) throw new MfaError('device_not_found');
      if (onlyTokens && !device.hardware_token_id) throw new MfaError('not_hardware_token');
      if (!allowLast && (await r.countDevices(user.id)) <= 1) throw new MfaError('last_device');
      await r.deleteDevice(user.id, deviceId);
      // The token goes back to the inventory with its counter: used codes stay used.
      if (device.hardware_token_id) await r.releaseToken(device.hardware_token_id, now);
      return toDevice(device);
    });
  }

  /** The builtin provider has no phone channel (no SMS gateway, no push service): it refuses, never imitates. */
  const noPhoneChannel = async (): Promise<never> => {
    throw new MfaError('not_supported', { reason: BUILTIN_NO_PHONE_CHANNEL });
  };

  return {
    name: 'builtin',
    capabilities: BUILTIN_CAPABILITIES,
    lifecycle: builtinAccountLifecycle(),

    addPhone: noPhoneChannel,
    phoneActivation: noPhoneChannel,
    sendSmsActivation: noPhoneChannel,
    startPush: noPhoneChannel,
    pushStatus: noPhoneChannel,
    sendVerificationPush: noPhoneChannel,
    verificationPushResponse: noPhoneChannel,

    ...builtinWebauthn(db, { toDevice, assertUsable }),

    async getUserData(username, now = new Date()) {
      // One query: the user, their devices (with authenticator models) and the live bypass-code summary (issue 16).
      const user = await repo.findUserData(username, now);
      if (!user) {
        return {
          provider: 'builtin',
          status: 'not_provisioned',
          statusReason: null,
          devices: [],
          bypassCodes: { active: 0, nextExpiresAt: null },
        };
      }
      const { status, statusReason } = effectiveStatus(user, now);
      const data: MfaData = {
        provider: 'builtin',
        status,
        statusReason,
        devices: user.devices.map((d) => toDevice(d, d.aaguid ?? undefined)),
        bypassCodes: { active: Number(user.bypass_active ?? 0), nextExpiresAt: iso(user.bypass_next_expires_at as Date | string | null) },
      };
      return data;
    },

    async getAccount(username, now = new Date()) {
      const user = await repo.findUserByUsername(username);
      if (!user) return null;
      return { ...effectiveStatus(user, now), deviceCount: await repo.countDevices(user.id) };
    },

    async listDevices(username) {
      const user = await userOrThrow(username);
      const [devices, aaguids] = await Promise.all([repo.listDevices(user.id), webauthnCredentialRepository(db).aaguidsOf(user.id)]);
      return devices.map((d) => toDevice(d, aaguids.get(d.id)));
    },

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

    async claimHardwareToken(username, input, opts) {
      const now = opts.now ?? new Date();
      return tx(async (r) => {
        const user = await r.lockUserByUsername(username);
        assertUsable(user, now);
        if (!opts.allowWhenDevicesExist && (await r.countDevices(user.id)) > 0) throw new MfaError('has_devices');
        const token = await r.lockTokenBySerial(input.serial);
        if (!token) throw new MfaError('token_not_found', { field: 'serial' });
        if (token.status !== 'available') throw new MfaError('token_not_available', { field: 'serial' });
        const seed = box.open(token.seed_sealed, tokenSeedAad(token.id));
        const result = verifyHotpSequence({ secret: seed, codes: input.codes, counter: token.counter });
        if (!result.ok) throw new MfaError('code_invalid', { field: 'codes' });
        if (!(await r.assignToken(token.id, user.id, token.counter, result.newCounter, now)))
          throw new MfaError('token_not_available', { field: 'serial' });
        const device = await r.insertDevice({
          user_id: user.id,
          kind: 'hardware_token',
          name: input.name ?? `${token.token_type} (${token.serial})`,
          capabilities: ['passcode'],
          serial: token.serial,
          token_type: token.token_type,
          hardware_token_id: token.id,
          created_at: now,
        });
        return toDevice(device);
      });
    },

    async resyncHardwareToken(username, deviceId, codes, opts = {}) {
      const now = opts.now ?? new Date();
      return tx(async (r) => {
        const user = await r.lockUserByUsername(username);
        assertUsable(user, now);
        const device = await r.findDevice(user.id, deviceId);
        if (!device) throw new MfaError('device_not_found');
        if (!device.hardware_token_id) throw new MfaError('not_hardware_token');
        const token = await r.lockTokenById(device.hardware_token_id);
        if (!token) throw new MfaError('not_hardware_token');
        const seed = box.open(token.seed_sealed, tokenSeedAad(token.id));
        const result = verifyHotpSequence({ secret: seed, codes, counter: token.counter, lookAhead: RESYNC_LOOK_AHEAD });
        if (!result.ok) throw new MfaError('code_invalid', { field: 'codes' });
        if (!(await r.advanceTokenCounter(token.id, token.counter, result.newCounter, now)))
          throw new MfaError('code_invalid', { field: 'codes' });
        return toDevice(device);
      });
    },

    releaseHardwareToken(username, deviceId, opts) {
      return deleteDeviceOf(username, deviceId, opts.allowLast, true, new Date());
    },

    async renameDevice(username, deviceId, name) {
      const now = new Date();
      const user = await repo.findUserByUsername(username);
      assertUsable(user, now);
      const device = await repo.renameDevice(user.id, deviceId, name);
      if (!device) throw new MfaError('device_not_found');
      return toDevice(device);
    },

    deleteDevice(username, deviceId, opts) {
      return deleteDeviceOf(username, deviceId, opts.allowLast, false, new Date());
    },

    verifyPasscode(username, code, opts = {}) {
      return verifyBuiltinPasscode(db, { keys: options.keys, policy }, username, code, opts);
    },

    async createBypassCodes(username, request, opts = {}) {
      const now = opts.now ?? new Date();
      const [problem] = validateBypassRequest(request);
      if (problem) throw new MfaError('bypass_invalid_request', { field: problem.field, reason: problem.code });
      return tx(async (r) => {
        const user = await r.lockUserByUsername(username);
        assertUsable(user, now);
        const live = Number((await r.bypassSummary(user.id, now)).active);
        const [tooMany] = validateBypassRequest(request, { liveCodes: live, replaceExisting: request.replaceExisting });
        if (tooMany) throw new MfaError('too_many_live_codes', { field: tooMany.field });
        const replaced = request.replaceExisting ? await r.revokeLiveBypassCodes(user.id, now) : 0;
        const expiresAt = bypassExpiresAt(now, request.validitySeconds);

        const codes: Array<{ id: string; code: string; expiresAt: Date; usesLeft: number }> = [];
        for (let attempt = 0; attempt < BYPASS_INSERT_ATTEMPTS && codes.length < request.count; attempt += 1) {
          const plain = new Map<string, string>();
          while (plain.size < request.count - codes.length) {
            const code = generateBypassCode();
            plain.set(hashBypassCode(code, bypassPepper), code);
          }
          const inserted = await r.insertBypassCodes(
            [...plain.keys()].map((code_hash) => ({
              user_id: user.id,
              code_hash,
              uses_left: request.reuseCount,
              reuse_count: request.reuseCount,
              expires_at: expiresAt,
              created_by: request.createdBy,
              created_at: now,
            })),
          );
          for (const row of inserted) {
            codes.push({
              id: row.id,
              code: formatBypassCode(plain.get(row.code_hash)!),
              expiresAt: row.expires_at,
              usesLeft: row.uses_left,
            });
          }
        }
        if (codes.length < request.count) throw new Error('could not generate unique bypass codes');
        return { codes, replaced };
      });
    },

    async listBypassCodes(username, opts = {}) {
      const user = await userOrThrow(username);
      return (await repo.listLiveBypassCodes(user.id, opts.now ?? new Date())).map(toBypassInfo);
    },

    async revokeBypassCode(username, id, opts = {}) {
      const now = opts.now ?? new Date();
      const user = await repo.findUserByUsername(username);
      assertUsable(user, now);
      const row = await repo.revokeBypassCode(user.id, id, now);
      if (!row) throw new MfaError('bypass_not_found');
      return toBypassInfo(row);
    },

    async searchUsers(query, page) {
      const rows = await repo.searchUsers(query, page.cursor ?? null, page.limit + 1);
      const users = rows.slice(0, page.limit).map((u) => ({
        username: u.username,
        email: u.email,
        realName: u.real_name,
        status: effectiveStatus(u, new Date()).status,
      }));
      return { users, nextCursor: rows.length > page.limit ? (users[users.length - 1]?.username ?? null) : null };
    },

    async unlockUser(username, opts = {}) {
      const now = opts.now ?? new Date();
      return tx(async (r) => {
        const user = await r.lockUserByUsername(username);
        if (!user) throw new MfaError('not_provisioned');
        // A disabled account stays disabled: unlocking ends lockouts only.
        if (user.status === 'locked_out' || user.failed_attempts !== 0 || user.locked_until !== null) {
          await r.updateUser(user.id, {
            ...(user.status === 'locked_out' ? { status: 'active', status_reason: null } : {}),
            failed_attempts: 0,
            locked_until: null,
            updated_at: now,
          });
        }
        const status = user.status === 'locked_out' ? 'active' : user.status;
        return {
          status,
          statusReason: status === user.status ? user.status_reason : null,
          lockedUntil: null,
          deviceCount: await r.countDevices(user.id),
        };
      });
    },
  };
}
