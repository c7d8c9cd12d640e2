import type { Selectable } from 'kysely';
import { PORTAL_AUTHENTICATOR_APP, type BypassCodeInfo, type Device, type DeviceCapability } from '@mfa-portal/shared';
import type { MfaDeviceTable, MfaUserTable } from '../../db/schema.js';
import { authenticatorModel } from '../common/aaguid-models.js';
import { maskPhoneNumber } from '../common/phone.js';
import { MfaError, type MfaAccount, type ProviderCapabilities } from '../port.js';

/** The builtin store's rows in the port's terms, and the constants its operations share. */

/**
 * What the builtin provider can really do with a device: check a passcode when it holds the device's
 * secret (an authenticator app) or its token's seed (a hardware token from the inventory). Its phone
 * channel is its own authenticator app: a phone activated in it (`app`, with its passcode seed and its
 * device key, stored together) takes pushes and passcodes. It has no SMS gateway and no other phone
 * app, so any other phone record offers nothing, whatever was stored with it. A passkey or security key
 * is checked by a WebAuthn ceremony.
 */
export function builtinCapabilities(
  d: Pick<Selectable<MfaDeviceTable>, 'kind' | 'secret_sealed' | 'hardware_token_id'> & { app?: MfaDeviceTable['app'] | undefined },
): DeviceCapability[] {
  if (d.kind === 'passkey' || d.kind === 'security_key') return ['webauthn'];
  if (d.kind === 'phone') return d.app === PORTAL_AUTHENTICATOR_APP && d.secret_sealed !== null ? ['push', 'passcode'] : [];
  const verifiable =
    d.kind === 'authenticator' ? d.secret_sealed !== null : d.kind === 'hardware_token' ? d.hardware_token_id !== null : false;
  return verifiable ? ['passcode'] : [];
}

/** Pending authenticator enrolments kept per user (older ones are dropped when a new one starts). */
export const MAX_PENDING_ENROLMENTS = 5;
/** How far a resynchronisation looks ahead of the stored counter (a token pressed many times offline). */
export const RESYNC_LOOK_AHEAD = 1000;
/** The reason shown with a lockout caused by failed attempts (getUserData's statusReason). */
export const LOCKOUT_STATUS_REASON = 'Too many failed verification attempts';
/** Regenerations tried when a new bypass code collides with an existing hash. */
export const BYPASS_INSERT_ATTEMPTS = 5;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids that reach SQL are checked first: a malformed one is "not found", never a database error. */
export const isUuid = (s: string): boolean => UUID.test(s);

export const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** Associated data binding a sealed secret to its row (copying it to another row makes it unreadable). */
export const deviceSecretAad = (deviceId: string) => `mfa_device:${deviceId}`;
export const subscriptionSecretAad = (deviceId: string) => `mfa_authenticator:${deviceId}`;
export const enrolmentSecretAad = (enrolmentId: string) => `mfa_totp_enrolment:${enrolmentId}`;
export const tokenSeedAad = (tokenId: string) => `mfa_hardware_token:${tokenId}`;

/** A device row as read, or as read through JSON (dates as strings). */
type DeviceRow = Omit<Selectable<MfaDeviceTable>, 'created_at' | 'last_used_at'> & {
  created_at: Date | string;
  last_used_at: Date | string | null;
};

/** `aaguid`: of a passkey or security key, whose model the device list names when it is a known one. */
export function toDevice(d: DeviceRow, aaguid?: string): Device {
  return {
    id: d.id,
    kind: d.kind,
    name: d.name,
    capabilities: builtinCapabilities(d),
    phoneNumber: maskPhoneNumber(d.phone_number),
    platform: d.platform,
    serial: d.serial,
    tokenType: d.token_type,
    // Only on a phone of the portal's own app: other devices keep their shape.
    ...(d.app ? { app: d.app } : {}),
    ...(d.kind === 'passkey' || d.kind === 'security_key' ? { authenticatorModel: authenticatorModel(aaguid) } : {}),
    createdAt: iso(d.created_at)!,
    lastUsedAt: iso(d.last_used_at),
  };
}

export function toBypassInfo(row: {
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

export type UserRow = Selectable<MfaUserTable>;

/** A lock by policy ends at `locked_until`; after that the user reads as active again. */
export function lockExpired(user: UserRow, now: Date): boolean {
  return user.status === 'locked_out' && user.locked_until !== null && user.locked_until.getTime() <= now.getTime();
}

export function effectiveStatus(user: UserRow, now: Date): Pick<MfaAccount, 'status' | 'statusReason' | 'lockedUntil'> {
  if (lockExpired(user, now)) return { status: 'active', statusReason: null, lockedUntil: null };
  return { status: user.status, statusReason: user.status_reason, lockedUntil: user.status === 'locked_out' ? user.locked_until : null };
}

/** Refuses changes for a disabled or (still) locked-out user. */
export function assertUsable(user: UserRow | undefined, now: Date): asserts user is UserRow {
  if (!user) throw new MfaError('not_provisioned');
  const { status, statusReason } = effectiveStatus(user, now);
  if (status === 'disabled') throw new MfaError('user_disabled', statusReason ? { reason: statusReason } : {});
  if (status === 'locked_out') throw new MfaError('user_locked_out', statusReason ? { reason: statusReason } : {});
}

/**
 * What the builtin provider can do: authenticator apps, D100 tokens, passkeys, and its own phone app
 * (push with number matching and passcodes). Phones by number and text messages it has not: a phone
 * is added by activating the app.
 */
export const BUILTIN_CAPABILITIES: ProviderCapabilities = Object.freeze({
  phones: false,
  smsActivation: false,
  push: true,
  totp: true,
  hardwareTokens: true,
  renameHardwareTokens: true,
  webauthn: true,
  webauthnEnrolledInProviderPrompt: false,
  authenticatorApp: true,
});
/** Why a phone number, its activation link or a text message is refused. */
export const BUILTIN_NO_PHONE_NUMBERS =
  'The builtin MFA provider has no text messages and adds no phone by its number: add a phone with the Portal Authenticator app.';
/** Why a push to anything but a phone activated in the portal's own app is refused. */
export const BUILTIN_PUSH_NEEDS_APP = 'The builtin MFA provider sends pushes only to a phone activated in the Portal Authenticator app.';

/** The builtin provider: the portal's own store in the database (embedded default). */
