import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { TOTP_ENROLMENT_TTL_SECONDS, type BypassCodeInfo, type Device, type DeviceCapability, type MfaData } from '@mfa-portal/shared';
import type { Database, MfaDeviceTable, MfaUserTable } from '../../db/schema.js';
import type { MfaKeys } from '../mfa-keys.js';
import { MfaError, type MfaAccount, type MfaProvider, type ProviderCapabilities, type VerifyFailure, type VerifyOutcome } from '../port.js';
import { builtinRepository, type BuiltinRepository } from './builtin.repository.js';
import {
  bypassExpiresAt,
  formatBypassCode,
  generateBypassCode,
  hashBypassCode,
  normalizeBypassCode,
  validateBypassRequest,
} from './bypass-codes.js';
import { DEFAULT_LOCKOUT_POLICY, lockStatus, nextLockoutState, type LockoutPolicy } from './lockout.js';
import { generateTotpSecret, isWellFormedOtp, otpauthUri, qrCodeSvg, verifyHotp, verifyHotpSequence, verifyTotp } from './otp.js';

const CAPABILITIES: readonly DeviceCapability[] = ['push', 'passcode'];

/** Pending authenticator enrolments kept per user (older ones are dropped when a new one starts). */
export const MAX_PENDING_ENROLMENTS = 5;
/** How far a resynchronisation looks ahead of the stored counter (a token pressed many times offline). */
export const RESYNC_LOOK_AHEAD = 1000;
/** The reason shown with a lockout caused by failed attempts (getUserData's statusReason). */
export const LOCKOUT_STATUS_REASON = 'Too many failed verification attempts';
/** Regenerations tried when a new bypass code collides with an existing hash. */
const BYPASS_INSERT_ATTEMPTS = 5;

/** Shows only the last digits of a phone number: +1 ••• ••• 0123. */
export function maskPhoneNumber(e164: string | null): string | null {
  if (!e164) return null;
  const digits = e164.replace(/\D/g, '');
  return `+${'•'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** Associated data binding a sealed secret to its row (copying it to another row makes it unreadable). */
export const deviceSecretAad = (deviceId: string) => `mfa_device:${deviceId}`;
export const enrolmentSecretAad = (enrolmentId: string) => `mfa_totp_enrolment:${enrolmentId}`;
export const tokenSeedAad = (tokenId: string) => `mfa_hardware_token:${tokenId}`;

export function toDevice(d: Selectable<MfaDeviceTable>): Device {
  return {
    id: d.id,
    kind: d.kind,
    name: d.name,
    capabilities: d.capabilities.filter((c): c is DeviceCapability => CAPABILITIES.includes(c as DeviceCapability)),
    phoneNumber: maskPhoneNumber(d.phone_number),
    platform: d.platform,
    serial: d.serial,
    tokenType: d.token_type,
    createdAt: iso(d.created_at)!,
    lastUsedAt: iso(d.last_used_at),
  };
}

function toBypassInfo(row: {
  id: string;
  created_at: Date;
  expires_at: Date;
  uses_left: number;
  reuse_count: number | null;
  created_by: string;
}): BypassCodeInfo {
  return {
    id: row.id,
    createdAt: iso(row.created_at)!,
    expiresAt: iso(row.expires_at)!,
    usesLeft: row.uses_left,
    reuseCount: row.reuse_count,
    createdBy: row.created_by,
  };
}

type UserRow = Selectable<MfaUserTable>;

/** A lock by policy ends at `locked_until`; after that the user reads as active again. */
function lockExpired(user: UserRow, now: Date): boolean {
  return user.status === 'locked_out' && user.locked_until !== null && user.locked_until.getTime() <= now.getTime();
}

function effectiveStatus(user: UserRow, now: Date): Pick<MfaAccount, 'status' | 'statusReason' | 'lockedUntil'> {
  if (lockExpired(user, now)) return { status: 'active', statusReason: null, lockedUntil: null };
  return { status: user.status, statusReason: user.status_reason, lockedUntil: user.status === 'locked_out' ? user.locked_until : null };
}

/** Refuses changes for a disabled or (still) locked-out user. */
function assertUsable(user: UserRow | undefined, now: Date): asserts user is UserRow {
  if (!user) throw new MfaError('not_provisioned');
  const { status, statusReason } = effectiveStatus(user, now);
  if (status === 'disabled') throw new MfaError('user_disabled', statusReason ? { reason: statusReason } : {});
  if (status === 'locked_out') throw new MfaError('user_locked_out', statusReason ? { reason: statusReason } : {});
}

export interface BuiltinProviderOptions {
  keys: Pick<MfaKeys, 'box' | 'bypassPepper'>;
  lockout?: LockoutPolicy;
}

/** What the builtin provider can do: authenticator apps and D100 tokens; no phone channel. */
export const BUILTIN_CAPABILITIES: ProviderCapabilities = Object.freeze({
  phones: false,
  smsActivation: false,
  push: false,
  totp: true,
  hardwareTokens: true,
  renameHardwareTokens: true,
});
export const BUILTIN_NO_PHONE_CHANNEL =
  'The builtin MFA provider has no phone channel: it cannot send text messages or pushes. Use an authenticator app or a hardware token.';

/** The builtin provider: the portal's own store in the database (embedded default). */
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

    addPhone: noPhoneChannel,
    phoneActivation: noPhoneChannel,
    sendSmsActivation: noPhoneChannel,
    startPush: noPhoneChannel,
    pushStatus: noPhoneChannel,
    sendVerificationPush: noPhoneChannel,
    verificationPushResponse: noPhoneChannel,

    async getUserData(username, now = new Date()) {
      const user = await repo.findUserByUsername(username);
      if (!user) {
        return {
          provider: 'builtin',
          status: 'not_provisioned',
          statusReason: null,
          devices: [],
          bypassCodes: { active: 0, nextExpiresAt: null },
        };
      }
      const [devices, bypass] = await Promise.all([repo.listDevices(user.id), repo.bypassSummary(user.id, now)]);
      const { status, statusReason } = effectiveStatus(user, now);
      const data: MfaData = {
        provider: 'builtin',
        status,
        statusReason,
        devices: devices.map(toDevice),
        bypassCodes: { active: Number(bypass.active), nextExpiresAt: iso(bypass.next_expires_at as Date | null) },
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
      return (await repo.listDevices(user.id)).map(toDevice);
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

    async verifyPasscode(username, code, opts = {}) {
      const now = opts.now ?? new Date();
      const methods = opts.methods ?? ['passcode', 'bypass'];
      const failure = (reason: VerifyFailure, extra: Partial<Extract<VerifyOutcome, { ok: false }>> = {}): VerifyOutcome => ({
        ok: false,
        reason,
        justLocked: false,
        retryAfterSeconds: null,
        statusReason: null,
        ...extra,
      });

      return tx(async (r): Promise<VerifyOutcome> => {
        const user = await r.lockUserByUsername(username);
        if (!user) return failure('not_provisioned');
        const current = effectiveStatus(user, now);
        if (current.status === 'disabled') return failure('user_disabled', { statusReason: current.statusReason });
        if (current.status === 'locked_out') {
          // A running lock: the code is not even looked at.
          const running = current.lockedUntil
            ? lockStatus({ failures: user.failed_attempts, lockedUntil: current.lockedUntil }, now)
            : null;
          return failure('user_locked_out', { statusReason: current.statusReason, retryAfterSeconds: running?.retryAfterSeconds ?? null });
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
            return failure('no_factor');
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

        const expired = lockExpired(user, now);
        if (matched) {
          if (user.failed_attempts !== 0 || user.locked_until !== null || expired) {
            await r.updateUser(user.id, {
              failed_attempts: 0,
              locked_until: null,
              updated_at: now,
              ...(expired ? { status: 'active', status_reason: null } : {}),
            });
          }
          return matched;
        }
        const decision = nextLockoutState({ failures: user.failed_attempts, lockedUntil: user.locked_until }, 'failure', now, policy);
        await r.updateUser(user.id, {
          failed_attempts: decision.failures,
          locked_until: decision.lockedUntil,
          updated_at: now,
          ...(decision.justLocked
            ? { status: 'locked_out', status_reason: LOCKOUT_STATUS_REASON }
            : expired
              ? { status: 'active', status_reason: null }
              : {}),
        });
        return failure(failed, {
          justLocked: decision.justLocked,
          retryAfterSeconds: decision.justLocked ? decision.retryAfterSeconds : null,
          statusReason: decision.justLocked ? LOCKOUT_STATUS_REASON : null,
        });
      });
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
