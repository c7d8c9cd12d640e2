import { z } from 'zod';

/** Query of GET /account/getuserinfo (spec §7). */
export const userInfoQuerySchema = z.object({
  userid: z.string().trim().min(1).max(256),
  email: z.string().trim().max(256).optional().default(''),
  firstname: z.string().trim().max(256).optional().default(''),
  lastname: z.string().trim().max(256).optional().default(''),
});
export type UserInfoQuery = z.infer<typeof userInfoQuerySchema>;

/** Claims the shell read from the identity token, sent base64url-encoded in the claims header. */
export const clientClaimsSchema = z.object({
  upn: z.string().max(256).optional(),
  email: z.string().max(256).optional(),
  given_name: z.string().max(256).optional(),
  family_name: z.string().max(256).optional(),
});
export type ClientClaims = z.infer<typeof clientClaimsSchema>;

export const MFA_STATUSES = ['active', 'bypass', 'disabled', 'locked_out', 'not_provisioned'] as const;
export type MfaStatus = (typeof MFA_STATUSES)[number];

export const DEVICE_KINDS = ['phone', 'authenticator', 'hardware_token'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

export const DEVICE_CAPABILITIES = ['push', 'passcode'] as const;
export type DeviceCapability = (typeof DEVICE_CAPABILITIES)[number];

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
