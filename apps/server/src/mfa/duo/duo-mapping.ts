import { type BypassCodeInfo, type Device, type DeviceCapability } from '@mfa-portal/shared';
import { maskPhoneNumber } from '../common/phone.js';
import { MfaError, type MfaAccount, type MfaProvider, type ProviderCapabilities } from '../port.js';
import { DuoApiError } from './errors.js';
import { portalIdOf } from './ids.js';
import type { DuoBypassCode, DuoPhone, DuoToken, DuoUser, DuoWebauthnCredential } from './types.js';

/** How Duo's users, phones, tokens and bypass codes read in the portal's terms (docs/duo.md). */

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
/** Validity of an activation link made for the portal (Duo's own default). */
export const DUO_ACTIVATION_VALID_SECONDS = 24 * 60 * 60;
export const D100_TOKEN_TYPE = 'd1';

export const TOKEN_TYPE_LABELS: Record<string, string> = {
  d1: 'Duo D100',
  h6: 'HOTP (6 digits)',
  h8: 'HOTP (8 digits)',
  t6: 'TOTP (6 digits)',
  t8: 'TOTP (8 digits)',
  yk: 'YubiKey (AES)',
};
export const PLATFORM_TO_PORTAL: Record<string, string> = {
  'apple ios': 'iOS',
  'google android': 'Android',
  'windows phone': 'Windows Phone',
  'generic smartphone': 'Generic smartphone',
};
export const PLATFORM_TO_DUO: Record<string, string> = {
  ios: 'apple ios',
  android: 'google android',
  'windows phone': 'windows phone',
  'generic smartphone': 'generic smartphone',
};

export const E164 = /^\+[1-9][0-9]{6,14}$/;

/** What Duo can do through the port: phones, Duo Mobile activation (QR or SMS), pushes; no authenticator-app enrolment. */
export const DUO_CAPABILITIES: ProviderCapabilities = Object.freeze({
  phones: true,
  smsActivation: true,
  push: true,
  totp: false,
  hardwareTokens: true,
  renameHardwareTokens: false,
  webauthn: false,
  webauthnEnrolledInProviderPrompt: true,
  authenticatorApp: false,
});

export const DUO_WEBAUTHN_IN_PROMPT = "Passkeys and security keys are enrolled in Duo's own prompt, the next time you sign in with Duo.";

/** WebAuthn credentials are enrolled and checked in Duo's own prompt: listed and removed as devices only. */
export const DUO_WEBAUTHN_METHODS: Pick<MfaProvider, 'listWebauthnCredentials' | 'addWebauthnCredential' | 'useWebauthnCredential'> = {
  async listWebauthnCredentials() {
    return [];
  },
  async addWebauthnCredential() {
    throw new MfaError('not_supported', { reason: DUO_WEBAUTHN_IN_PROMPT });
  },
  async useWebauthnCredential() {
    throw new MfaError('not_supported', { reason: DUO_WEBAUTHN_IN_PROMPT });
  },
};

export const notSupported = (reason: string) => new MfaError('not_supported', { reason });
export const iso = (d: Date) => d.toISOString();
export const fromUnix = (seconds: number) => new Date(seconds * 1000);

export function statusOf(user: DuoUser): Pick<MfaAccount, 'status' | 'statusReason'> {
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
export function assertUsable(user: DuoUser): void {
  const { status, statusReason } = statusOf(user);
  if (status === 'disabled') throw new MfaError('user_disabled', statusReason ? { reason: statusReason } : {});
  if (status === 'locked_out') throw new MfaError('user_locked_out', statusReason ? { reason: statusReason } : {});
}

export function phoneCapabilities(phone: DuoPhone): DeviceCapability[] {
  const caps: DeviceCapability[] = [];
  if (phone.capabilities.includes('push')) caps.push('push');
  // Duo Mobile passcodes (6 digits). SMS passcodes have 7 digits, which the portal's forms refuse.
  if (phone.capabilities.includes('mobile_otp')) caps.push('passcode');
  return caps;
}

export function platformLabel(platform: string): string | null {
  const p = platform.trim();
  if (!p || p.toLowerCase() === 'unknown') return null;
  return PLATFORM_TO_PORTAL[p.toLowerCase()] ?? p;
}

/** Duo's `last_seen` (`YYYY-MM-DDTHH:MM:SS`, UTC) as ISO, or null. */
export function lastSeen(value: string | undefined): string | null {
  if (!value) return null;
  const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * Duo records when a user was created, not when a phone or token was added: devices carry the user's
 * creation time (a lower bound), or the epoch when Duo gives none.
 */
export const createdAtOf = (user: DuoUser) => iso(fromUnix(user.created ?? 0));

export function phoneToDevice(phone: DuoPhone, user: DuoUser): Device {
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

export function tokenToDevice(token: DuoToken, user: DuoUser): Device {
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

/**
 * The kind of a WebAuthn credential: from `registered_as` when Duo gives it (a roaming security key,
 * or a platform authenticator / passkey); only without it from the label, a display text.
 */
export function webauthnIsSecurityKey(cred: DuoWebauthnCredential): boolean {
  const as = (cred.registered_as ?? '').trim().toLowerCase();
  if (as) return /security[ _-]?key|roaming|cross[ _-]?platform|u2f/.test(as);
  return /security key/i.test(cred.label);
}

/** Duo's `date_last_used` (Unix seconds, or an ISO text) as ISO, or null. */
export function webauthnLastUsed(value: DuoWebauthnCredential['date_last_used']): string | null {
  if (value === null || value === undefined || value === '' || value === 0) return null;
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? iso(fromUnix(value)) : null;
  return /^\d+$/.test(value) ? iso(fromUnix(Number(value))) : lastSeen(value);
}

export function webauthnToDevice(cred: DuoWebauthnCredential, user: DuoUser): Device {
  const securityKey = webauthnIsSecurityKey(cred);
  return {
    id: portalIdOf('webauthn', cred.webauthnkey),
    kind: securityKey ? 'security_key' : 'passkey',
    name: cred.credential_name?.trim() || cred.label || (securityKey ? 'Security key' : 'Passkey'),
    capabilities: ['webauthn'],
    phoneNumber: null,
    platform: null,
    serial: null,
    tokenType: null,
    authenticatorModel: cred.label || null,
    createdAt: cred.date_added ? iso(fromUnix(cred.date_added)) : createdAtOf(user),
    lastUsedAt: webauthnLastUsed(cred.date_last_used),
  };
}

export function isLive(code: DuoBypassCode, now: Date): boolean {
  return code.expiration === null || code.expiration * 1000 > now.getTime();
}

export function toBypassInfo(code: DuoBypassCode): BypassCodeInfo {
  return {
    id: portalIdOf('bypass_code', code.bypass_code_id),
    createdAt: iso(fromUnix(code.created)),
    expiresAt: iso(code.expiration === null ? DUO_NEVER_EXPIRES : fromUnix(code.expiration)),
    // No limit (a code made in Duo's Admin Panel): null, "unlimited" in the portal's terms.
    usesLeft: code.reuse_count === null || code.reuse_count === 0 ? null : code.reuse_count,
    // Duo reports the uses left, not the count the code was created with.
    reuseCount: null,
    createdBy: code.admin_email || DUO_BYPASS_CREATED_BY,
  };
}

export const byCreated = (a: DuoBypassCode, b: DuoBypassCode) => a.created - b.created || (a.bypass_code_id < b.bypass_code_id ? -1 : 1);

export type FoundDevice =
  | { kind: 'phone'; phone: DuoPhone; device: Device }
  | { kind: 'token'; token: DuoToken; device: Device }
  | { kind: 'webauthn'; credential: DuoWebauthnCredential; device: Device };

export interface UserDevices {
  phones: DuoPhone[];
  tokens: DuoToken[];
  devices: Device[];
  find(deviceId: string): FoundDevice | null;
}

export const is404 = (err: unknown) => err instanceof DuoApiError && err.httpStatus === 404;
export const is400 = (err: unknown) => err instanceof DuoApiError && err.httpStatus === 400;
/**
 * A per-user limit of Duo's (phones, bypass codes): Duo answers 500 with code 50001 and says "limit".
 * Only when it says so: 50001 alone is also Duo's plain internal error, an outage.
 */
export const isLimitReached = (err: unknown) =>
  err instanceof DuoApiError &&
  err.httpStatus === 500 &&
  err.duoCode === 50001 &&
  /limit/i.test(`${err.duoMessage ?? ''} ${err.messageDetail ?? ''}`);
