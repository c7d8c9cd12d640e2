import { z } from 'zod';
import { AUTHENTICATION_TYPES, type AuthenticationType } from './constants.js';
import { userText } from './user-text.js';

/** Query of GET /account/getuserinfo (the user-info call the sign-in shell makes). */
export const userInfoQuerySchema = z.object({
  userid: userText({ max: 256, min: 1 }),
  email: userText({ max: 256 }).optional().default(''),
  firstname: userText({ max: 256 }).optional().default(''),
  lastname: userText({ max: 256 }).optional().default(''),
});
export type UserInfoQuery = z.infer<typeof userInfoQuerySchema>;

/** Claims the shell read from the identity token, sent base64url-encoded in the claims header. */
export const clientClaimsSchema = z.object({
  upn: userText({ max: 256, trim: false }).optional(),
  email: userText({ max: 256, trim: false }).optional(),
  given_name: userText({ max: 256, trim: false }).optional(),
  family_name: userText({ max: 256, trim: false }).optional(),
});
export type ClientClaims = z.infer<typeof clientClaimsSchema>;

export const MFA_STATUSES = ['active', 'bypass', 'disabled', 'locked_out', 'not_provisioned'] as const;
export type MfaStatus = (typeof MFA_STATUSES)[number];

/** `passkey` (a platform or synced WebAuthn credential) and `security_key` (a roaming FIDO2 key): WebAuthn. */
export const DEVICE_KINDS = ['phone', 'authenticator', 'hardware_token', 'passkey', 'security_key'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

/** `webauthn`: answers a WebAuthn assertion (phishing-resistant). */
export const DEVICE_CAPABILITIES = ['push', 'passcode', 'webauthn'] as const;
export type DeviceCapability = (typeof DEVICE_CAPABILITIES)[number];

/**
 * The authentication type (Push or Passcode, AUTHENTICATION_TYPES) each device capability gives; null for a WebAuthn
 * assertion, which is none of them (the device list names it on its own).
 */
export const AUTHENTICATION_TYPE_OF_CAPABILITY: Readonly<Record<DeviceCapability, AuthenticationType | null>> = {
  push: 'Push',
  passcode: 'Passcode',
  webauthn: null,
};

/** The authentication types a device offers, always in the same order (Push, then Passcode). */
export function authenticationTypesOf(capabilities: readonly DeviceCapability[]): AuthenticationType[] {
  return AUTHENTICATION_TYPES.filter((type) => capabilities.some((c) => AUTHENTICATION_TYPE_OF_CAPABILITY[c] === type));
}

export const deviceSchema = z.object({
  id: z.string(),
  kind: z.enum(DEVICE_KINDS),
  name: z.string(),
  capabilities: z.array(z.enum(DEVICE_CAPABILITIES)),
  /** Phones: E.164 number, masked except the last digits. */
  phoneNumber: z.string().nullable(),
  platform: z.string().nullable(),
  /** Hardware tokens: serial and type. */
  serial: z.string().nullable(),
  tokenType: z.string().nullable(),
  /** WebAuthn credentials: the authenticator model (from its AAGUID) when known. */
  authenticatorModel: z.string().nullable().optional(),
  /** Phones: the push app on it, when it is the portal's own authenticator app (push and passcodes). */
  app: z.enum(['portal_authenticator']).nullable().optional(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type Device = z.infer<typeof deviceSchema>;

export const bypassSummarySchema = z.object({
  /** Live (unexpired, unrevoked, uses left) codes. */
  active: z.number().int().nonnegative(),
  /** Earliest expiry among live codes. */
  nextExpiresAt: z.iso.datetime().nullable(),
});
export type BypassSummary = z.infer<typeof bypassSummarySchema>;

export const mfaDataSchema = z.object({
  provider: z.enum(['builtin', 'duo']),
  status: z.enum(MFA_STATUSES),
  /** Why the account is locked out or disabled, when the provider says. */
  statusReason: z.string().nullable(),
  devices: z.array(deviceSchema),
  bypassCodes: bypassSummarySchema,
});
export type MfaData = z.infer<typeof mfaDataSchema>;

export const portalUserSchema = z.object({
  upn: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  roles: z.array(z.string()),
  portalRole: z.enum(['staff', 'helpdesk', 'solution_admin']),
  isProtected: z.boolean(),
});
export type PortalUser = z.infer<typeof portalUserSchema>;

/** 200 body of GET /account/getuserinfo. */
export const userInfoResponseSchema = z.object({
  user: portalUserSchema,
  mfa: mfaDataSchema,
});
export type UserInfoResponse = z.infer<typeof userInfoResponseSchema>;
