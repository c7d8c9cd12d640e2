import { z } from 'zod';
import { MAX_BYPASS_VALIDITY_SECONDS } from './constants.js';
import { deviceSchema } from './profile.js';
import { userText } from './user-text.js';

/**
 * The self-service MFA API (`/api/me/...`): request and response schemas shared by the server (route
 * validation, response guarding, OpenAPI) and the web application (forms, typed fetchers).
 */

/** Bypass-code bounds (DESIGN.md "MFA rules"): 1–10 codes, 1 minute–7 days, 1–10 uses, 100 live per user. */
export const BYPASS_CODE_LIMITS = Object.freeze({
  minCount: 1,
  maxCount: 10,
  minValiditySeconds: 60,
  maxValiditySeconds: MAX_BYPASS_VALIDITY_SECONDS,
  minReuse: 1,
  maxReuse: 10,
  maxLivePerUser: 100,
});

/** How long a started authenticator enrolment waits for its confirming code. */
export const TOTP_ENROLMENT_TTL_SECONDS = 10 * 60;
/** Default age of a step-up verification that still allows sensitive changes (configurable on the server). */
export const DEFAULT_STEP_UP_MAX_AGE_SECONDS = 5 * 60;
export const ACTIVITY_PAGE_DEFAULT = 20;
export const ACTIVITY_PAGE_MAX = 100;
export const DEVICE_NAME_MAX_LENGTH = 64;

// --- building blocks ---

/** A 6-digit passcode from an authenticator app or a Duo D100 token. */
export const otpCodeSchema = z.string().regex(/^[0-9]{6}$/, 'must be the 6 digits shown by the app or token');

/** A bypass code as typed: 9 digits, optionally grouped with spaces or dashes (`123 456 789`). */
export const bypassCodeInputSchema = z
  .string()
  .max(32)
  .regex(/^[0-9](?:[ -]?[0-9]){8}$/, 'must be the 9 digits of a bypass code');

/** A device name chosen by its owner: 1 to 64 characters, no control characters. */
export const deviceNameSchema = userText({ max: DEVICE_NAME_MAX_LENGTH, min: 1 }).regex(
  /^[^\p{Cc}\p{Cf}]*$/u,
  'must not contain control characters',
);

export const hardwareTokenSerialSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(32, 'must be at most 32 characters')
  .regex(/^[A-Za-z0-9-]+$/, 'must contain only letters, digits and dashes');

export const deviceIdParamsSchema = z.object({ id: z.uuid('must be a device id') });
export const enrolmentIdParamsSchema = z.object({ enrolmentId: z.uuid('must be an enrolment id') });
export const bypassCodeIdParamsSchema = z.object({ id: z.uuid('must be a bypass-code id') });

// --- devices ---

/** 200 body of GET /api/me/devices. */
export const devicesResponseSchema = z.object({ devices: z.array(deviceSchema) });
export type DevicesResponse = z.infer<typeof devicesResponseSchema>;

/** 201 body of POST /api/me/devices/authenticator: shown once, scanned by the app, then confirmed. */
export const totpEnrolmentResponseSchema = z.object({
  enrolmentId: z.uuid(),
  /** Base32 secret for manual entry in the app. */
  secret: z.string(),
  /** `otpauth://totp/...` URI (what the QR code encodes). */
  otpauthUri: z.string(),
  /** The QR code as an SVG document. */
  qrSvg: z.string(),
  /** The enrolment must be confirmed before this instant. */
  expiresAt: z.iso.datetime(),
});
export type TotpEnrolmentResponse = z.infer<typeof totpEnrolmentResponseSchema>;

/** Body of POST /api/me/devices/authenticator/:enrolmentId/confirm. */
export const confirmTotpBodySchema = z.object({ code: otpCodeSchema, name: deviceNameSchema });
export type ConfirmTotpBody = z.infer<typeof confirmTotpBodySchema>;

/** Body of POST /api/me/devices/hardware-token: claim a Duo D100 by serial and two consecutive codes. */
export const claimHardwareTokenBodySchema = z.object({
  serial: hardwareTokenSerialSchema,
  codes: z.array(otpCodeSchema).length(2, 'must be two consecutive codes'),
  name: deviceNameSchema.optional(),
});
export type ClaimHardwareTokenBody = z.infer<typeof claimHardwareTokenBodySchema>;

/** Body of POST /api/me/devices/:id/resync: three consecutive codes. */
export const resyncHardwareTokenBodySchema = z.object({
  codes: z.array(otpCodeSchema).length(3, 'must be three consecutive codes'),
});
export type ResyncHardwareTokenBody = z.infer<typeof resyncHardwareTokenBodySchema>;

/** Body of PATCH /api/me/devices/:id. */
export const renameDeviceBodySchema = z.object({ name: deviceNameSchema });
export type RenameDeviceBody = z.infer<typeof renameDeviceBodySchema>;

/** Query of DELETE /api/me/devices/:id: `confirmLastDevice=true` to remove the only device. */
export const deleteDeviceQuerySchema = z.object({
  confirmLastDevice: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
});
export type DeleteDeviceQuery = z.infer<typeof deleteDeviceQuerySchema>;

/** Body of POST /api/me/devices/:id/test. */
export const testDeviceBodySchema = z.object({ code: otpCodeSchema });
export type TestDeviceBody = z.infer<typeof testDeviceBodySchema>;

/** 200 body of POST /api/me/devices/:id/test. */
export const testDeviceResponseSchema = z.object({
  verified: z.literal(true),
  device: deviceSchema,
  verifiedAt: z.iso.datetime(),
});
export type TestDeviceResponse = z.infer<typeof testDeviceResponseSchema>;

// --- bypass codes ---

/** Metadata of a live bypass code (the code itself is shown once, at creation). */
export const bypassCodeInfoSchema = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  /** Uses left; null: no limit (a code made at the MFA provider with unlimited uses). */
  usesLeft: z.number().int().nonnegative().nullable(),
  /** Uses it was created with (null for codes older than this field). */
  reuseCount: z.number().int().positive().nullable(),
  /** UPN of whoever created it. */
  createdBy: z.string(),
});
export type BypassCodeInfo = z.infer<typeof bypassCodeInfoSchema>;

/** 200 body of GET /api/me/bypass-codes: live codes, oldest first. */
export const bypassCodesResponseSchema = z.object({ codes: z.array(bypassCodeInfoSchema) });
export type BypassCodesResponse = z.infer<typeof bypassCodesResponseSchema>;

/** Body of POST /api/me/bypass-codes. */
export const createBypassCodesBodySchema = z.object({
  count: z
    .number()
    .int('must be a whole number')
    .min(BYPASS_CODE_LIMITS.minCount, `must be at least ${BYPASS_CODE_LIMITS.minCount}`)
    .max(BYPASS_CODE_LIMITS.maxCount, `must be at most ${BYPASS_CODE_LIMITS.maxCount}`),
  validitySeconds: z
    .number()
    .int('must be a whole number of seconds')
    .min(BYPASS_CODE_LIMITS.minValiditySeconds, 'must be at least one minute')
    .max(BYPASS_CODE_LIMITS.maxValiditySeconds, 'must be at most 7 days'),
  reuseCount: z
    .number()
    .int('must be a whole number')
    .min(BYPASS_CODE_LIMITS.minReuse, `must be at least ${BYPASS_CODE_LIMITS.minReuse}`)
    .max(BYPASS_CODE_LIMITS.maxReuse, `must be at most ${BYPASS_CODE_LIMITS.maxReuse}`)
    .default(1),
  /** Revoke the live codes first (default: keep them). */
  replaceExisting: z.boolean().default(false),
});
export type CreateBypassCodesBody = z.input<typeof createBypassCodesBodySchema>;

/** 201 body of POST /api/me/bypass-codes: the codes, shown this once. */
export const createBypassCodesResponseSchema = z.object({
  codes: z.array(
    z.object({
      id: z.uuid(),
      /** Display form, `123 456 789`. */
      code: z.string(),
      expiresAt: z.iso.datetime(),
      usesLeft: z.number().int().positive(),
    }),
  ),
  /** Live codes revoked because `replaceExisting` was set. */
  replaced: z.number().int().nonnegative(),
});
export type CreateBypassCodesResponse = z.infer<typeof createBypassCodesResponseSchema>;

// --- step-up ---

export const STEP_UP_METHODS = ['passcode', 'bypass'] as const;
export type StepUpMethod = (typeof STEP_UP_METHODS)[number];

/** Body of POST /api/me/step-up. */
export const stepUpBodySchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('passcode'), code: otpCodeSchema }),
  z.object({ method: z.literal('bypass'), code: bypassCodeInputSchema }),
]);
export type StepUpBody = z.infer<typeof stepUpBodySchema>;

/** 200 body of GET and POST /api/me/step-up. */
export const stepUpStatusSchema = z.object({
  active: z.boolean(),
  method: z.enum(['passcode', 'bypass', 'push', 'webauthn']).nullable(),
  verifiedAt: z.iso.datetime().nullable(),
  /** Sensitive changes are allowed until this instant. */
  expiresAt: z.iso.datetime().nullable(),
  maxAgeSeconds: z.number().int().positive(),
});
export type StepUpStatus = z.infer<typeof stepUpStatusSchema>;

// --- activity: the query of a person's activity, and audit events as the administration lists them ---

export const activityQuerySchema = z.object({
  /** `nextCursor` of the previous page. */
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, 'must be the nextCursor of a previous page')
    .optional(),
  limit: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(ACTIVITY_PAGE_MAX, `must be at most ${ACTIVITY_PAGE_MAX}`)
    .default(ACTIVITY_PAGE_DEFAULT),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

export const activityEventSchema = z.object({
  id: z.string(),
  occurredAt: z.iso.datetime(),
  actorUpn: z.string().nullable(),
  actorRoles: z.array(z.string()),
  targetUpn: z.string().nullable(),
  /** Dotted action, e.g. `device.delete`, `mfa.verify`, `bypass.create`. */
  action: z.string(),
  outcome: z.enum(['success', 'failure']),
  /** Error code or cause when the outcome is a failure. */
  reason: z.string().nullable(),
  requestId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type ActivityEvent = z.infer<typeof activityEventSchema>;

// GET /api/me/activity answers with entries (activity-api.ts), each made of these events.
