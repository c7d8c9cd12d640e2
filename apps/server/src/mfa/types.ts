import type { MfaStatus, PhonePlatform, PushStateName } from '@mfa-portal/shared';

/** The data the MFA port takes and answers (port.ts re-exports every one of them). */

export interface AccountProfile {
  email: string;
  realName: string;
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
  /** The portal's own authenticator app (push with number matching, passcodes) can be activated ({@link MfaProvider.authenticatorApp}). */
  authenticatorApp: boolean;
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
  /** What the push is for: the phone says so ("Check that this phone works", "Confirm it is you", "Sign in"). */
  purpose: 'device_test' | 'step_up' | 'sign_in';
  /** The address of the person who asked for it (the provider's network and location policies). */
  ipaddr?: string | null;
  /** What the phone shows about who asks, where and with what (the portal's own app shows it all). */
  context?: PushContext;
  now?: Date;
}

/** What a push tells the person on the phone: which application, from which browser and system, where. */
export interface PushContext {
  application: string;
  browser: string | null;
  os: string | null;
  ipAddress: string | null;
  /** The place IP_LOCATIONS names for the address. */
  location: string | null;
  /** For a helpdesk check: who at the helpdesk asked. */
  requestedBy?: string | null;
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
  /** Whether the provider says the user has a device to sign in with (Duo's `is_enrolled`); absent: it does not say. */
  enrolled?: boolean;
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
