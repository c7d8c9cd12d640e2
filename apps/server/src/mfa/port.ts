import type { BypassCodeInfo, Device, MfaData } from '@mfa-portal/shared';
import type { AuthenticatorApp } from './authenticator-app-port.js';
import type {
  AccountProfile,
  AddPhoneInput,
  BypassCodeRequest,
  CreatedBypassCodes,
  MfaAccount,
  MfaUserPage,
  MfaUserSummary,
  NewWebauthnCredential,
  PhoneActivation,
  ProviderCapabilities,
  PushContext,
  PushOptions,
  PushState,
  StartedPush,
  TotpEnrolment,
  VerifyOptions,
  VerifyOutcome,
  WebauthnCredential,
} from './types.js';

export type { AuthenticatorApp } from './authenticator-app-port.js';
export type {
  AccountProfile,
  AddPhoneInput,
  BypassCodeRequest,
  CreatedBypassCodes,
  MfaAccount,
  MfaUserPage,
  MfaUserSummary,
  NewWebauthnCredential,
  PhoneActivation,
  ProviderCapabilities,
  PushContext,
  PushOptions,
  PushState,
  StartedPush,
  TotpEnrolment,
  VerifyFailure,
  VerifyMethod,
  VerifyOptions,
  VerifyOutcome,
  WebauthnCredential,
} from './types.js';

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
  sendVerificationPush(
    username: string,
    deviceId: string,
    opts?: { context?: PushContext; now?: Date },
  ): Promise<{ pushId: string; confirmationCode: string }>;
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

  // --- administration: an administrator calls these for another user ---
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
   * Account lifecycle (SCIM, just-in-time provisioning, the admin screens); absent when the provider's
   * accounts cannot be managed from the portal. Called inside the caller's transaction (the unit of
   * work): an adapter that keeps accounts in the portal's database writes on that ambient transaction,
   * so the change commits or rolls back with its audit event; an adapter that calls a remote service
   * (Duo) makes the call inside it and throws when refused, so the portal records the change only once
   * the provider has accepted it.
   */
  readonly lifecycle?: AccountLifecycle;

  /**
   * The portal's own authenticator app (capability `authenticatorApp`): activation by a single-use link,
   * device keys, and the app's side of a push. Absent where the provider has its own phone app (Duo).
   */
  readonly authenticatorApp?: AuthenticatorApp;
}

export interface AccountLifecycle {
  /**
   * Creates the account without devices when it does not exist (disabled from the start with
   * `disabledReason`); updates e-mail and name otherwise (its status is then left as it is).
   */
  provision(username: string, profile: AccountProfile, opts?: { disabledReason?: string }): Promise<void>;
  /** Renames the account and/or updates its profile; nothing when it does not exist. */
  update(username: string, changes: Partial<AccountProfile> & { newUsername?: string }): Promise<void>;
  /** Disables (with a reason shown to the helpdesk) or re-enables the account; false when it does not exist. */
  setEnabled(username: string, enabled: boolean, reason: string | null): Promise<boolean>;
  /**
   * Removes the account and its secrets (devices, seeds, codes); hardware tokens return to the inventory.
   * What the portal's modules hold about the account's sessions (step-ups, pushes) is theirs to forget.
   */
  remove(username: string): Promise<void>;
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
  | 'limit_reached'
  /** Authenticator app activation: no such link, already used, or out of time. */
  | 'activation_invalid'
  | 'activation_used'
  | 'activation_expired'
  /** A push answer: bad signature, wrong number, out of time, answered already. */
  | 'push_signature_invalid'
  | 'push_number_mismatch'
  | 'push_expired'
  | 'push_already_answered';

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
