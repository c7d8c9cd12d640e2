import { z } from 'zod';
import { adminTicketSchema } from './admin-api.js';
import { deviceNameSchema, stepUpStatusSchema } from './mfa-api.js';

/**
 * Phones and push: adding a phone, activating its push app, test pushes, step-up by push and
 * the helpdesk's verification push. Offered only when the configured MFA provider can do it
 * (GET /api/me/capabilities); otherwise the server answers 409 `mfa.not_supported_by_provider`.
 */

export const PHONE_PLATFORMS = ['ios', 'android', 'other'] as const;
export type PhonePlatform = (typeof PHONE_PLATFORMS)[number];

/** A phone number in E.164 form: `+`, country code and number, 8 to 15 digits in all. */
export const e164Schema = z
  .string()
  .trim()
  .regex(/^\+[1-9][0-9]{6,14}$/, 'must be an international number such as +15555550100');

/** How long the portal waits for an answer to a push before calling it timed out. */
export const PUSH_TIMEOUT_SECONDS = 60;
/** How often the web application asks for the state of a push. */
export const PUSH_POLL_INTERVAL_MS = 2000;

export const PUSH_STATES = ['waiting', 'approved', 'denied', 'fraud', 'timeout'] as const;
export type PushStateName = (typeof PUSH_STATES)[number];

/** 200 body of GET /api/me/capabilities: what the configured MFA provider can do. */
export const providerCapabilitiesSchema = z.object({
  provider: z.enum(['builtin', 'duo']),
  /** Phones can be added and activated for push. */
  phones: z.boolean(),
  /** The activation link can be sent by text message. */
  smsActivation: z.boolean(),
  /** Pushes can be sent (test a phone, step-up, helpdesk verification). */
  push: z.boolean(),
  /** Authenticator apps (TOTP) can be added. */
  totp: z.boolean(),
  /** Duo D100 hardware tokens can be claimed. */
  hardwareTokens: z.boolean(),
  /** Hardware tokens can be renamed (Duo's have no name: they are shown by type and serial). */
  renameHardwareTokens: z.boolean(),
  /** Passkeys and security keys (WebAuthn) can be registered in the portal and used for step-up. */
  webauthn: z.boolean().default(false),
  /** The provider lists and removes WebAuthn credentials, but they are enrolled in its own prompt (Duo). */
  webauthnEnrolledInProviderPrompt: z.boolean().default(false),
  /** The portal's own authenticator app (push with number matching, passcodes) can be activated on a phone. */
  authenticatorApp: z.boolean().default(false),
});
export type ProviderCapabilitiesResponse = z.infer<typeof providerCapabilitiesSchema>;

/** Body of POST /api/me/devices/phone. */
export const addPhoneBodySchema = z.object({
  number: e164Schema,
  platform: z.enum(PHONE_PLATFORMS, { message: 'must be ios, android or other' }),
  name: deviceNameSchema.optional(),
});
export type AddPhoneBody = z.infer<typeof addPhoneBodySchema>;

/** 200 body of GET /api/me/devices/:id/activation: scan the QR code with the phone's push app. */
export const phoneActivationResponseSchema = z.object({
  activationUrl: z.string(),
  /** The QR code as an SVG document (null when the provider gave none). */
  qrSvg: z.string().nullable(),
  /** Where to install the app first, when the provider gives one. */
  installationUrl: z.string().nullable(),
  expiresAt: z.iso.datetime(),
});
export type PhoneActivationResponse = z.infer<typeof phoneActivationResponseSchema>;

/** 200 body of POST /api/me/devices/:id/activation/sms. */
export const smsActivationResponseSchema = z.object({ sent: z.literal(true), expiresAt: z.iso.datetime() });
export type SmsActivationResponse = z.infer<typeof smsActivationResponseSchema>;

export const pushParamsSchema = z.object({ id: z.uuid('must be a device id'), txid: z.uuid('must be a push id') });
export const pushIdParamsSchema = z.object({ txid: z.uuid('must be a push id') });

/** A push the portal started: poll it until `state` is no longer `waiting`. */
export const pushTransactionSchema = z.object({
  txid: z.uuid(),
  deviceId: z.string(),
  state: z.enum(PUSH_STATES),
  startedAt: z.iso.datetime(),
  /** After this instant a push still waiting reads as `timeout`. */
  expiresAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
export type PushTransaction = z.infer<typeof pushTransactionSchema>;

/**
 * 202 body of POST /api/me/step-up/push and POST /api/me/devices/:id/push: the push just sent, and the
 * number the phone asks for when the push is a number-matching one (show it; null when it is not).
 */
export const startedPushSchema = pushTransactionSchema.extend({ verificationCode: z.string().nullable() });
export type StartedPush = z.infer<typeof startedPushSchema>;

/** Body of POST /api/me/step-up/push. */
export const stepUpPushBodySchema = z.object({ deviceId: z.uuid('must be a device id') });
export type StepUpPushBody = z.infer<typeof stepUpPushBodySchema>;

/** 200 body of GET /api/me/step-up/push/:txid: the push, and the step-up it gave once approved. */
export const stepUpPushStatusSchema = pushTransactionSchema.extend({ stepUp: stepUpStatusSchema });
export type StepUpPushStatus = z.infer<typeof stepUpPushStatusSchema>;

/** Body of POST /api/admin/users/:upn/verify-identity/push. */
export const adminVerifyPushBodySchema = z.object({
  deviceId: z.uuid('must be a device id'),
  /** The ticket of the call, recorded with the verification the approval records. */
  ticket: adminTicketSchema.optional(),
});
/** 202 body: read `confirmationCode` to the user; they see it in the push before approving. */
export const adminVerifyPushResponseSchema = pushTransactionSchema.extend({ confirmationCode: z.string() });
export type AdminVerifyPushResponse = z.infer<typeof adminVerifyPushResponseSchema>;
/** 200 body of GET /api/admin/users/:upn/verify-identity/push/:txid. */
export const adminVerifyPushStatusSchema = pushTransactionSchema.extend({ verified: z.boolean() });
export type AdminVerifyPushStatus = z.infer<typeof adminVerifyPushStatusSchema>;
