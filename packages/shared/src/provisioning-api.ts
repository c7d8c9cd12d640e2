import { z } from 'zod';
import { adminReasonSchema, adminTicketSchema } from './admin-api.js';
import { userText } from './user-text.js';

/** Account lifecycle and the first-device policy: admin and self-service contract. */

export const FIRST_DEVICE_POLICIES = ['open', 'window', 'pass'] as const;
export type FirstDevicePolicy = (typeof FIRST_DEVICE_POLICIES)[number];
export const DIRECTORY_SOURCES = ['scim', 'jit', 'demo', 'sign_in'] as const;
export type DirectorySourceName = (typeof DIRECTORY_SOURCES)[number];

/** An enrolment pass lives at most 8 hours (like Entra's Temporary Access Pass for a first sign-in). */
export const ENROLMENT_PASS_MAX_LIFETIME_MINUTES = 8 * 60;
export const ENROLMENT_PASS_MIN_LIFETIME_MINUTES = 5;
export const ENROLMENT_PASS_MAX_USES = 10;
/** After redeeming a pass, the user may add a first device for this long. */
export const ENROLMENT_PASS_GRANT_SECONDS = 15 * 60;

/** A reason recorded in the audit log (and shown to the helpdesk): printable text only. */
const reason = adminReasonSchema.regex(/^[^\p{Cc}\p{Cf}]*$/u, 'must not contain control characters');
const ticket = adminTicketSchema.optional();

export const issueEnrolmentPassBodySchema = z.object({
  reason,
  ticket,
  uses: z.number().int().min(1).max(ENROLMENT_PASS_MAX_USES).default(1),
  lifetimeMinutes: z.number().int().min(ENROLMENT_PASS_MIN_LIFETIME_MINUTES).max(ENROLMENT_PASS_MAX_LIFETIME_MINUTES).default(60),
});
export type IssueEnrolmentPassBody = z.input<typeof issueEnrolmentPassBodySchema>;

export const enrolmentPassInfoSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  maxUses: z.number(),
  usesLeft: z.number(),
  createdBy: z.string(),
  reason: z.string(),
  redeemedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type EnrolmentPassInfo = z.infer<typeof enrolmentPassInfoSchema>;

export const issueEnrolmentPassResponseSchema = z.object({
  /** Shown once (`ABCD-EFGH-JKLM-NPQR`); only its hash is stored. */
  pass: z.string(),
  info: enrolmentPassInfoSchema,
});
export type IssueEnrolmentPassResponse = z.infer<typeof issueEnrolmentPassResponseSchema>;

export const enrolmentPassesResponseSchema = z.object({ passes: z.array(enrolmentPassInfoSchema) });
export type EnrolmentPassesResponse = z.infer<typeof enrolmentPassesResponseSchema>;

export const enrolmentPolicyResponseSchema = z.object({
  policy: z.enum(FIRST_DEVICE_POLICIES),
  /** The user has no device and may not add one without a pass right now. */
  passRequired: z.boolean(),
  /** `window`: until when the first device may be added without a pass. */
  windowEndsAt: z.string().nullable(),
  /** A redeemed pass opens the add-device flow until then. */
  passGrantedUntil: z.string().nullable(),
});
export type EnrolmentPolicyResponse = z.infer<typeof enrolmentPolicyResponseSchema>;

export const redeemEnrolmentPassBodySchema = z.object({ pass: userText({ max: 64, min: 1 }) });
export type RedeemEnrolmentPassBody = z.infer<typeof redeemEnrolmentPassBodySchema>;

export const adminAccountStatusBodySchema = z.object({ reason, ticket });
export type AdminAccountStatusBody = z.infer<typeof adminAccountStatusBodySchema>;

export const adminRevokeBypassCodesBodySchema = z.object({
  reason,
  ticket,
  ids: z.array(z.uuid('must be a bypass-code id')).min(1).max(50).optional(),
});
export type AdminRevokeBypassCodesBody = z.infer<typeof adminRevokeBypassCodesBodySchema>;
export const adminRevokeBypassCodesResponseSchema = z.object({ revoked: z.number() });
