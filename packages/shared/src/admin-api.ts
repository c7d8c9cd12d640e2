import { z } from 'zod';
import { activityEventSchema, BYPASS_CODE_LIMITS, bypassCodeInfoSchema, createBypassCodesBodySchema, otpCodeSchema } from './mfa-api.js';
import { deviceSchema, MFA_STATUSES, mfaDataSchema } from './profile.js';
import { userText } from './user-text.js';

/**
 * Contract of the administration API (`/api/admin/...`): Helpdesk and Solution Administrators acting
 * for other staff. Every change carries a reason and a ticket reference (recorded in the audit log).
 * The hardware-token inventory is in admin-tokens-api.ts, the audit log in admin-audit-api.ts.
 */

export const ADMIN_PAGE_DEFAULT = 20;
export const ADMIN_PAGE_MAX = 100;
export const ADMIN_REASON_MAX_LENGTH = 500;
export const ADMIN_TICKET_MAX_LENGTH = 64;

/** `limit` of a paged admin list. */
export const adminPageLimitSchema = z.coerce
  .number({ message: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(ADMIN_PAGE_MAX, `must be at most ${ADMIN_PAGE_MAX}`)
  .default(ADMIN_PAGE_DEFAULT);

export const upnSchema = userText({ max: 254, required: 'is required' })
  .toLowerCase()
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be a sign-in name such as name@example.com');

/** Reason and ticket reference required with every admin change. */
export const adminReasonSchema = userText({ max: ADMIN_REASON_MAX_LENGTH, multiline: true, required: 'is required' }).min(
  3,
  'must say why (at least 3 characters)',
);
export const adminTicketSchema = userText({ max: ADMIN_TICKET_MAX_LENGTH, required: 'is required' })
  .min(1, 'is required')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/#-]*$/, 'must be a ticket reference such as INC-1234');
export const adminActionBodySchema = z.object({ reason: adminReasonSchema, ticket: adminTicketSchema });
export type AdminActionBody = z.infer<typeof adminActionBodySchema>;

// --- users ---

export const adminUserParamsSchema = z.object({ upn: upnSchema });
export const adminDeviceParamsSchema = z.object({ upn: upnSchema, id: z.uuid('must be a device id') });

export const adminUserSearchQuerySchema = z.object({
  q: userText({ max: 100 }).default(''),
  cursor: userText({ max: 254, trim: false }).optional(),
  limit: adminPageLimitSchema,
});
export type AdminUserSearchQuery = z.infer<typeof adminUserSearchQuerySchema>;

/** Why an account is protected: it holds a restricted role, or the portal has never seen its roles. */
export const protectionSchema = z.object({
  protected: z.boolean(),
  reason: z.enum(['restricted_role', 'roles_unknown']).nullable(),
});

export const adminUserSummarySchema = z.object({
  upn: z.string(),
  email: z.string(),
  realName: z.string(),
  status: z.enum(MFA_STATUSES),
  protection: protectionSchema,
});
export const adminUsersResponseSchema = z.object({ users: z.array(adminUserSummarySchema), nextCursor: z.string().nullable() });
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

export const ADMIN_USER_ACTIONS = [
  'verify_identity',
  'create_bypass_codes',
  'delete_device',
  'resync_token',
  'unlock',
  'send_activation',
  'disable_account',
  'revoke_bypass_codes',
  'issue_enrolment_pass',
] as const;
export type AdminUserActionName = (typeof ADMIN_USER_ACTIONS)[number];

// --- verify, then issue: an administrator verifies the person before changing their MFA ---

/** How the helpdesk verified a caller who has no device left (recorded by hand, with a ticket). */
export const ADMIN_MANUAL_VERIFICATION_METHODS = [
  'photo_id_video_call',
  'hr_record_call_back',
  'in_person',
  'manager_confirmation',
] as const;
export type AdminManualVerificationMethod = (typeof ADMIN_MANUAL_VERIFICATION_METHODS)[number];
export const ADMIN_VERIFICATION_METHODS = ['passcode', 'push', ...ADMIN_MANUAL_VERIFICATION_METHODS] as const;
export type AdminVerificationMethod = (typeof ADMIN_VERIFICATION_METHODS)[number];

/**
 * The user actions a Helpdesk Administrator may take only after recording a verification of the
 * user's identity within the window (the lost-device wizard too); otherwise 403 admin.verification_required.
 */
export const ADMIN_VERIFICATION_GUARDED_ACTIONS = [
  'create_bypass_codes',
  'delete_device',
  'resync_token',
  'issue_enrolment_pass',
] as const satisfies readonly AdminUserActionName[];

export const adminManualVerificationBodySchema = z.object({
  method: z.enum(ADMIN_MANUAL_VERIFICATION_METHODS, { message: 'must be one of the listed verification methods' }),
  ticket: adminTicketSchema,
  /** What was checked (optional, recorded). */
  note: z.string().trim().max(ADMIN_REASON_MAX_LENGTH, `must be at most ${ADMIN_REASON_MAX_LENGTH} characters`).optional(),
});
export type AdminManualVerificationBody = z.infer<typeof adminManualVerificationBodySchema>;

/** A verification of the user's identity recorded by the caller, in force until `expiresAt`. */
export const adminIdentityVerificationSchema = z.object({
  method: z.enum(ADMIN_VERIFICATION_METHODS),
  ticket: z.string().nullable(),
  verifiedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type AdminIdentityVerification = z.infer<typeof adminIdentityVerificationSchema>;

export const adminVerificationStateSchema = z.object({
  /** False for a Solution Administrator (who may act without one; the audit event then says so). */
  required: z.boolean(),
  windowSeconds: z.number().int().positive(),
  /** The caller's latest verification of this user within the window, if any. */
  current: adminIdentityVerificationSchema.nullable(),
});
export type AdminVerificationState = z.infer<typeof adminVerificationStateSchema>;

export const adminUserDetailSchema = z.object({
  user: z.object({
    upn: z.string(),
    displayName: z.string(),
    email: z.string(),
    /** Roles as last seen by the portal; null when never seen. */
    roles: z.array(z.string()).nullable(),
    lastSeenAt: z.iso.datetime().nullable(),
    /** Where the account came from: SCIM, just-in-time, demo seed, or first seen at sign-in. */
    source: z.enum(['scim', 'jit', 'demo', 'sign_in']).nullable().optional(),
    createdAt: z.iso.datetime().nullable().optional(),
    updatedAt: z.iso.datetime().nullable().optional(),
    /** SCIM groups the user belongs to. */
    groups: z.array(z.string()).optional(),
  }),
  mfa: mfaDataSchema,
  bypassCodes: z.array(bypassCodeInfoSchema),
  activity: z.array(activityEventSchema),
  protection: protectionSchema,
  /** What the caller may do here, and why not (a policy reason) when they may not. */
  actions: z.record(z.enum(ADMIN_USER_ACTIONS), z.object({ allowed: z.boolean(), reason: z.string().nullable() })),
  /** The caller's identity verification of this user (verify first, then change their devices or codes). */
  verification: adminVerificationStateSchema,
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminVerifyIdentityBodySchema = z.object({
  deviceId: z.uuid('must be a device id').optional(),
  code: otpCodeSchema,
  /** The ticket of the call, recorded with the verification. */
  ticket: adminTicketSchema.optional(),
});
export const adminVerifyIdentityResponseSchema = z.object({
  verified: z.boolean(),
  /** Error code of a failed check (`mfa.code_invalid`, `mfa.code_replayed`, ...). */
  reason: z.string().nullable(),
  deviceId: z.string().nullable(),
  checkedAt: z.iso.datetime(),
});
export type AdminVerifyIdentityResponse = z.infer<typeof adminVerifyIdentityResponseSchema>;

/** The self-service bounds (count, validity, reuse, replace) plus the reason and ticket of every admin action. */
export const adminCreateBypassCodesBodySchema = adminActionBodySchema.extend(createBypassCodesBodySchema.shape);
export type AdminCreateBypassCodesBody = z.input<typeof adminCreateBypassCodesBodySchema>;

export const adminDeleteDeviceBodySchema = adminActionBodySchema.extend({
  /** Needed to remove the user's only device (409 otherwise). */
  confirmLastDevice: z.boolean().default(false),
});
export const adminResyncBodySchema = adminActionBodySchema.extend({
  codes: z.array(otpCodeSchema).length(3, 'must be three consecutive codes'),
});
export const adminDeviceResponseSchema = z.object({ device: deviceSchema });

/** A lost-device bypass code is single use and valid at most 24 hours. */
export const LOST_DEVICE_MAX_VALIDITY_SECONDS = 24 * 60 * 60;
export const adminLostDeviceBodySchema = adminActionBodySchema.extend({
  deviceId: z.uuid('must be a device id'),
  confirmLastDevice: z.boolean().default(false),
  validitySeconds: z
    .number()
    .int('must be a whole number of seconds')
    .min(BYPASS_CODE_LIMITS.minValiditySeconds, 'must be at least one minute')
    .max(LOST_DEVICE_MAX_VALIDITY_SECONDS, 'must be at most 24 hours')
    .default(LOST_DEVICE_MAX_VALIDITY_SECONDS),
});
export const adminLostDeviceResponseSchema = z.object({
  /** False when an earlier, interrupted run had already removed it (the wizard resumed). */
  deviceRemoved: z.boolean(),
  /** Shown once. */
  bypassCode: z.object({ id: z.uuid(), code: z.string(), expiresAt: z.iso.datetime(), usesLeft: z.literal(1) }),
  /** Where the user signs in to enrol a new device (then test it). */
  enrolmentUrl: z.string(),
});
export type AdminLostDeviceResponse = z.infer<typeof adminLostDeviceResponseSchema>;

/**
 * How long a successful identity check by an administrator counts as "just verified" by default
 * (HELPDESK_VERIFICATION_WINDOW_SECONDS configures it).
 */
export const ADMIN_IDENTITY_CHECK_FRESH_SECONDS = 15 * 60;

/**
 * Where the lost-device wizard of a user stands, derived by the server from the audit log and the
 * user's devices (GET /api/admin/users/:upn/lost-device), so an interrupted wizard resumes at the
 * right step in any tab or browser, or for a colleague.
 */
export const adminLostDeviceProgressSchema = z.object({
  /** The caller's latest successful identity check of this user, if recent (see ADMIN_IDENTITY_CHECK_FRESH_SECONDS). */
  identityCheck: z.object({ checkedAt: z.iso.datetime(), deviceId: z.string().nullable() }).nullable(),
  /** The latest lost-device case of this user in the last 24 hours (the longest a lost-device code lives), if any. */
  case: z
    .object({
      startedAt: z.iso.datetime(),
      /** Who ran it (possibly a colleague). */
      actorUpn: z.string().nullable(),
      reason: z.string().nullable(),
      ticket: z.string().nullable(),
      /** Step 2 done: the device removed. */
      removedDevice: z.object({ id: z.string(), name: z.string().nullable(), kind: z.string().nullable(), removedAt: z.iso.datetime() }),
      /** Step 3 done: the single-use code issued (the newest one). `usesLeft` 0: used, expired or revoked; null: no limit. */
      bypassCode: z
        .object({
          id: z.string(),
          issuedAt: z.iso.datetime(),
          expiresAt: z.iso.datetime().nullable(),
          usesLeft: z.number().int().nonnegative().nullable(),
        })
        .nullable(),
      /** Step 4 done: devices the user added after the removal. */
      newDevices: z.array(deviceSchema),
      /** Step 5 done: a code of a new device was accepted (an identity check, a device test or a sign-in). */
      tested: z.object({ deviceId: z.string(), testedAt: z.iso.datetime() }).nullable(),
    })
    .nullable(),
});
export type AdminLostDeviceProgress = z.infer<typeof adminLostDeviceProgressSchema>;

export const adminUnlockResponseSchema = z.object({ status: z.enum(MFA_STATUSES), statusReason: z.string().nullable() });
export type AdminUnlockResponse = z.infer<typeof adminUnlockResponseSchema>;
export const adminActivationResponseSchema = z.object({
  /** Give this address to the user: they sign in there and add a device. */
  activationUrl: z.string(),
  /** The portal sends no e-mail: the administrator passes the link on. */
  emailSent: z.literal(false),
});
export type AdminActivationResponse = z.infer<typeof adminActivationResponseSchema>;
