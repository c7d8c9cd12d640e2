import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { BypassCodeInfo, Device, MfaData, MfaStatus, PhonePlatform, PushStateName } from '@mfa-portal/shared';

/**
 * The port every MFA provider adapter implements (builtin store, Duo). Routes and services speak
 * only to this interface; the adapter is chosen by configuration (MFA_PROVIDER).
 *
 * Users are named by their sign-in name (UPN, compared without regard to case). Every method that
 * acts on a device or a code is scoped to that user: another user's id is "not found". Expected
 * refusals are thrown as {@link MfaError}; a verification returns its outcome instead (the caller
 * audits failures and must not lose them to an exception).
 *
 * Portal policy (step-up, rate limits, audit) stays in the services; the adapter enforces atomically
 * what only it can: "no device exists yet", "not the last device", single use of codes, counters.
 */
export interface MfaProvider {
  readonly name: MfaData['provider'];
  /**
   * What this provider can do beyond the common core, so routes and the web application offer only
   * that. An operation whose capability is false is refused with `not_supported` (409
   * `mfa.not_supported_by_provider`), never imitated.
   */
  readonly capabilities: ProviderCapabilities;
  /** The user's status, devices and bypass-code summary; status 'not_provisioned' when unknown. */
  getUserData(username: string, now?: Date): Promise<MfaData>;
  /** Status of a provisioned user (an expired lockout reads as active); null when not provisioned. */
  getAccount(username: string, now?: Date): Promise<MfaAccount | null>;
  listDevices(username: string): Promise<Device[]>;

  /**
   * Starts an authenticator (TOTP) enrolment: a fresh secret, held until confirmed by a first valid code.
   * With `allowWhenDevicesExist: false`, refuses (`has_devices`) when the user already has a device.
   */
  startTotpEnrolment(username: string, opts: { allowWhenDevicesExist: boolean; issuer: string; now?: Date }): Promise<TotpEnrolment>;
  /** Confirms an enrolment with a valid code: the device now counts (and that step is used). */
  confirmTotpEnrolment(
    username: string,
    enrolmentId: string,
    input: { code: string; name: string },
    opts: { allowWhenDevicesExist: boolean; now?: Date },
  ): Promise<Device>;

  /** Claims an available hardware token by serial and two consecutive codes (proof of possession). */
  claimHardwareToken(
    username: string,
    input: { serial: string; codes: readonly string[]; name?: string },
    opts: { allowWhenDevicesExist: boolean; now?: Date },
  ): Promise<Device>;
  /** Resynchronises the user's hardware token with three consecutive codes (the counter only moves forward). */
  resyncHardwareToken(username: string, deviceId: string, codes: readonly string[], opts?: { now?: Date }): Promise<Device>;
  /** Removes the user's hardware token device and returns the token to the inventory (its counter kept). */
  releaseHardwareToken(username: string, deviceId: string, opts: { allowLast: boolean }): Promise<Device>;

  renameDevice(username: string, deviceId: string, name: string): Promise<Device>;
  /** Deletes a device; refuses (`last_device`) to delete the only one unless `allowLast`. */
  deleteDevice(username: string, deviceId: string, opts: { allowLast: boolean }): Promise<Device>;

  /**
   * Checks a passcode (TOTP or HOTP, 6 digits) or a bypass code (9 digits) for the user, applying the
   * lockout policy. A used TOTP step, HOTP counter or bypass-code use is never accepted twice.
   * `deviceId` restricts the check to one device; `methods` to passcodes or bypass codes.
   */
  verifyPasscode(username: string, code: string, opts?: VerifyOptions): Promise<VerifyOutcome>;

  createBypassCodes(username: string, request: BypassCodeRequest, opts?: { now?: Date }): Promise<CreatedBypassCodes>;
  /** Live codes (not revoked, not expired, uses left), oldest first: metadata only. */
  listBypassCodes(username: string, opts?: { now?: Date }): Promise<BypassCodeInfo[]>;
  revokeBypassCode(username: string, id: string, opts?: { now?: Date }): Promise<BypassCodeInfo>;

  // --- phones and push (capabilities `phones`, `smsActivation`, `push`) ---
  /**
   * Adds a phone (E.164 number, platform) for the user. With `allowWhenDevicesExist: false`, refuses
   * (`has_devices`) when the user already has a device.
   */
  addPhone(username: string, input: AddPhoneInput, opts: { allowWhenDevicesExist: boolean }): Promise<Device>;
  /** A fresh activation link (and QR code) that installs the phone's push app for this phone. */
  phoneActivation(username: string, deviceId: string, opts?: { now?: Date }): Promise<PhoneActivation>;
  /** Sends the activation link to the phone by text message. */
  sendSmsActivation(username: string, deviceId: string, opts?: { now?: Date }): Promise<{ expiresAt: Date }>;
  /**
   * Starts a push to one of the user's phones; answers at once with the provider's transaction id, and
   * the number the phone asks for when the push is a number-matching one (null when it is not).
   */
  startPush(username: string, deviceId: string, opts: PushOptions): Promise<StartedPush>;
  /** The state of a push started by {@link startPush} for this user. */
  pushStatus(username: string, txid: string): Promise<PushState>;
  /** Helpdesk identity check: a verification push to the user's phone showing a confirmation code. */
  sendVerificationPush(username: string, deviceId: string): Promise<{ pushId: string; confirmationCode: string }>;
  verificationPushResponse(username: string, pushId: string): Promise<PushState>;

  // --- passkeys and security keys (capability `webauthn`; the ceremony itself is modules/webauthn) ---
  /** The user's WebAuthn credentials, to build an assertion's allow-list and check its signature. */
  listWebauthnCredentials(username: string): Promise<WebauthnCredential[]>;
  /**
   * Stores a verified registration as a `passkey` or `security_key` device. With
   * `allowWhenDevicesExist: false`, refuses (`has_devices`) when the user already has a device;
   * refuses (`credential_exists`) a credential already registered (by anyone).
   */
  addWebauthnCredential(
    username: string,
    input: NewWebauthnCredential,
    opts: { allowWhenDevicesExist: boolean; now?: Date },
  ): Promise<Device>;
  /**
   * Records a verified assertion of one of the user's credentials: its signature counter must move
   * forward (or stay 0 for an authenticator without one). A counter that goes back is refused
   * (`counter_regressed`: a possible clone) and nothing changes.
   */
  useWebauthnCredential(username: string, deviceId: string, signCount: number, opts?: { now?: Date }): Promise<Device>;

  // --- administration (issue 5): an administrator calls these for another user ---
  /** Provisioned users whose username, email or real name contains `query` (case-insensitive), by username. */
  searchUsers(query: string, page: { cursor?: string; limit: number }): Promise<MfaUserPage>;
  /**
   * Every user the provider holds, a page at a time, `beforeCall` awaited before each request (its
   * pace). Present where the provider cannot search by substring itself (Duo): the portal mirrors the
   * list into its own directory and searches that (see modules/admin/directory-sync.ts).
   */
  eachUserPage?(onPage: (users: MfaUserSummary[]) => Promise<void>, beforeCall: () => Promise<void>): Promise<void>;
  /** Ends a lockout (by policy or administrative): the account reads as active again, failures reset. */
  unlockUser(username: string, opts?: { now?: Date }): Promise<MfaAccount>;

  /**
   * Account lifecycle (provisioning, issue 15); absent when the provider's accounts cannot be managed
   * from the portal. `tx` is the caller's database transaction: an adapter that keeps accounts in the
   * portal's database writes inside it, so the change commits or rolls back with its audit event; an
   * adapter that calls a remote service (Duo) makes the call inside it and throws when refused, so
   * the portal records the change only once the provider has accepted it.
   */
  readonly lifecycle?: AccountLifecycle;
}

export interface AccountProfile {
  email: string;
  realName: string;
}

export interface AccountLifecycle {
  /**
   * Creates the account without devices when it does not exist (disabled from the start with
   * `disabledReason`); updates e-mail and name otherwise (its status is then left as it is).
   */
  provision(username: string, profile: AccountProfile, tx: Kysely<Database>, opts?: { disabledReason?: string }): Promise<void>;
  /** Renames the account and/or updates its profile; nothing when it does not exist. */
  update(username: string, changes: Partial<AccountProfile> & { newUsername?: string }, tx: Kysely<Database>): Promise<void>;
  /** Disables (with a reason shown to the helpdesk) or re-enables the account; false when it does not exist. */
  setEnabled(username: string, enabled: boolean, reason: string | null, tx: Kysely<Database>): Promise<boolean>;
  /** Removes the account and its secrets (devices, seeds, codes); hardware tokens return to the inventory. */
  remove(username: string, tx: Kysely<Database>): Promise<void>;
}

/** What a provider can do; the web application reads it from GET /api/me/capabilities. */
export interface ProviderCapabilities {
  /** Phones can be added (and activated for push). */
  phones: boolean;
  /** The activation link can be sent to the phone by text message. */
  smsActivation: boolean;
  /** Pushes can be sent to activated phones (test, step-up, helpdesk verification). */
  push: boolean;
  /** Authenticator apps (TOTP) can be enrolled. */
  totp: boolean;
  /** Duo D100 hardware tokens can be claimed. */
  hardwareTokens: boolean;
  /** Hardware tokens can be renamed (renameDevice); Duo's have no name. */
  renameHardwareTokens: boolean;
  /** Passkeys and security keys are registered through the portal and verified by it (WebAuthn). */
  webauthn: boolean;
  /** WebAuthn credentials are listed and removed here but enrolled in the provider's own prompt (Duo). */
  webauthnEnrolledInProviderPrompt: boolean;
}

/** A stored WebAuthn credential (base64url fields, as SimpleWebAuthn reads them). */
export interface WebauthnCredential {
  deviceId: string;
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
}

export interface NewWebauthnCredential {
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
  aaguid: string;
  attachment: 'platform' | 'cross-platform' | null;
  backupEligible: boolean;
  backedUp: boolean;
  kind: 'passkey' | 'security_key';
  name: string;
}

export interface AddPhoneInput {
  /** E.164 (`+15555550100`). */
  number: string;
  platform: PhonePlatform;
  name?: string;
}

export interface PhoneActivation {
  activationUrl: string;
  /** The provider's QR-code image URL (on its host: the portal's CSP does not load it; use qrSvg). */
  activationBarcodeUrl: string;
  /** The same QR code rendered by the portal, null when the barcode URL has no readable value. */
  qrSvg: string | null;
  installationUrl: string | null;
  expiresAt: Date;
}

export interface PushOptions {
  /** What the push is for: the phone says so ("Check that this phone works", "Confirm it is you"). */
  purpose: 'device_test' | 'step_up';
  /** The address of the person who asked for it (the provider's network and location policies). */
  ipaddr?: string | null;
}

export interface StartedPush {
  txid: string;
  /** Number matching: the code the person enters on the phone to approve (shown in the browser). */
  verificationCode: string | null;
}

export interface PushState {
  state: PushStateName;
  /** The provider's status text, for logs and the helpdesk. */
  detail: string | null;
}

export interface MfaUserSummary {
  username: string;
  email: string;
  realName: string;
  status: Exclude<MfaStatus, 'not_provisioned'>;
}

export interface MfaUserPage {
  users: MfaUserSummary[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

export interface MfaAccount {
  status: Exclude<MfaStatus, 'not_provisioned'>;
  statusReason: string | null;
  /** End of a lockout caused by failed attempts (null: none, or an indefinite administrative lock). */
  lockedUntil: Date | null;
  deviceCount: number;
}

export interface TotpEnrolment {
  enrolmentId: string;
  /** Base32, shown once for manual entry. */
  secret: string;
  otpauthUri: string;
  qrSvg: string;
  expiresAt: Date;
}

export type VerifyMethod = 'passcode' | 'bypass';

export interface VerifyOptions {
  now?: Date;
  /** The address of the person entering the code, when it is their own (the provider's network policies). */
  ipaddr?: string | null;
  deviceId?: string;
  methods?: readonly VerifyMethod[];
}

export type VerifyFailure =
  /** The code matched nothing (or was malformed). Counts toward lockout. */
  | 'code_invalid'
  /** The code was right but its TOTP step or HOTP counter was already used. Counts toward lockout. */
  | 'code_replayed'
  /** Locked (now, or by this very failure when `justLocked`). */
  | 'user_locked_out'
  | 'user_disabled'
  | 'not_provisioned'
  /** Nothing could verify a passcode (no authenticator or token). Does not count. */
  | 'no_factor';

export type VerifyOutcome =
  | { ok: true; method: 'totp' | 'hotp' | 'bypass'; deviceId: string | null; bypassId: string | null }
  | { ok: false; reason: VerifyFailure; justLocked: boolean; retryAfterSeconds: number | null; statusReason: string | null };

export interface BypassCodeRequest {
  count: number;
  validitySeconds: number;
  reuseCount: number;
  replaceExisting: boolean;
  /** UPN of whoever asked for them. */
  createdBy: string;
}

export interface CreatedBypassCodes {
  /** `code` in display form (`123 456 789`): shown once, never stored. */
  codes: Array<{ id: string; code: string; expiresAt: Date; usesLeft: number }>;
  /** Live codes revoked by `replaceExisting`. */
  replaced: number;
}

export type MfaErrorCode =
  | 'not_provisioned'
  | 'user_disabled'
  | 'user_locked_out'
  | 'has_devices'
  | 'device_not_found'
  | 'last_device'
  | 'not_hardware_token'
  | 'verification_unsupported'
  | 'enrolment_not_found'
  | 'enrolment_expired'
  | 'code_invalid'
  | 'token_not_found'
  | 'token_not_available'
  /** Inventory: the token is not assigned / is assigned / is retired. */
  | 'token_not_assigned'
  | 'token_assigned'
  | 'token_retired'
  | 'bypass_not_found'
  | 'bypass_invalid_request'
  /** Input the provider cannot take (the field and the rule it breaks): 400 request.invalid. */
  | 'invalid_request'
  | 'too_many_live_codes'
  /** The configured provider cannot do this (see {@link ProviderCapabilities}). */
  | 'not_supported'
  /** A push transaction unknown for this user. */
  | 'push_not_found'
  /** This WebAuthn credential is already registered. */
  | 'credential_exists'
  /** A WebAuthn signature counter went back: a possible cloned authenticator. */
  | 'counter_regressed'
  /** The phone number is another user's at the provider (never moved from them). */
  | 'phone_in_use'
  /** A limit the provider sets per user (devices, codes) is reached. */
  | 'limit_reached';

/** The reason recorded (audit, account status) with a lock caused by repeated failed codes. */
export const LOCKOUT_REASON = 'too_many_failed_attempts';

/** An expected refusal by the provider; the services map it to an HTTP error code. */
export class MfaError extends Error {
  override readonly name = 'MfaError';
  constructor(
    readonly code: MfaErrorCode,
    readonly details: { field?: string; reason?: string } = {},
  ) {
    super(`MFA provider refused: ${code}${details.reason ? ` (${details.reason})` : ''}`);
  }
}
