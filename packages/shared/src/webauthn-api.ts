import { z } from 'zod';
import { userText } from './user-text.js';
import { deviceNameSchema } from './mfa-api.js';
import { deviceSchema } from './profile.js';

/**
 * Passkeys and security keys (WebAuthn): the ceremony bodies of `/api/me/webauthn/...`,
 * `/api/me/step-up/webauthn` and the Solution Administrator's policy (`/api/admin/webauthn/policy`).
 * The options and responses are WebAuthn's JSON forms (base64url fields), as SimpleWebAuthn reads and
 * writes them; the server checks them, the schemas only bound their size and shape.
 */

/** How long a registration or assertion challenge may be answered. */
export const WEBAUTHN_CHALLENGE_TTL_SECONDS = 5 * 60;
/** Most AAGUIDs in the allow-list. */
export const WEBAUTHN_ALLOW_LIST_MAX = 100;

const b64url = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

/** An AAGUID in its usual 8-4-4-4-12 hexadecimal form (compared in lower case). */
export const aaguidSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be an AAGUID (8-4-4-4-12 hexadecimal digits)');

/** WebAuthn's RegistrationResponseJSON (what `navigator.credentials.create()` gives, as JSON). */
export const registrationResponseJsonSchema = z.object({
  id: b64url(1366).min(1),
  rawId: b64url(1366).min(1),
  type: z.literal('public-key'),
  response: z
    .object({
      clientDataJSON: b64url(4096).min(1),
      attestationObject: b64url(32_768).min(1),
      transports: z
        .array(userText({ max: 32, trim: false }))
        .max(10)
        .optional(),
    })
    .passthrough(),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/** WebAuthn's AuthenticationResponseJSON (what `navigator.credentials.get()` gives, as JSON). */
export const authenticationResponseJsonSchema = z.object({
  id: b64url(1366).min(1),
  rawId: b64url(1366).min(1),
  type: z.literal('public-key'),
  response: z
    .object({
      clientDataJSON: b64url(4096).min(1),
      authenticatorData: b64url(4096).min(1),
      signature: b64url(2048).min(1),
      userHandle: b64url(256).optional(),
    })
    .passthrough(),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/** 201 body of POST /api/me/webauthn/registration and 200 body of POST .../step-up/webauthn/options. */
export const webauthnOptionsResponseSchema = z.object({
  challengeId: z.uuid(),
  /** PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON. */
  options: z.record(z.string(), z.unknown()),
  expiresAt: z.iso.datetime(),
});
export type WebauthnOptionsResponse = z.infer<typeof webauthnOptionsResponseSchema>;

/** Body of POST /api/me/webauthn/registration/verify. */
export const finishRegistrationBodySchema = z.object({
  challengeId: z.uuid('must be the challengeId of the registration'),
  name: deviceNameSchema,
  response: registrationResponseJsonSchema,
});
export type FinishRegistrationBody = z.input<typeof finishRegistrationBodySchema>;

/** Body of POST /api/me/step-up/webauthn and POST /api/me/devices/:id/webauthn-test. */
export const finishAssertionBodySchema = z.object({
  challengeId: z.uuid('must be the challengeId of the request'),
  response: authenticationResponseJsonSchema,
});
export type FinishAssertionBody = z.input<typeof finishAssertionBodySchema>;

/** 200 body of POST /api/me/devices/:id/webauthn-test. */
export const webauthnTestResponseSchema = z.object({ verified: z.literal(true), device: deviceSchema, verifiedAt: z.iso.datetime() });

/** The Solution Administrator's WebAuthn policy. */
export const webauthnPolicySchema = z.object({
  /** Only these authenticator models may be registered; empty: any. */
  aaguidAllowList: z.array(aaguidSchema).max(WEBAUTHN_ALLOW_LIST_MAX, `must list at most ${WEBAUTHN_ALLOW_LIST_MAX} models`),
  /** Holders of protected accounts step up with a passkey or security key only. */
  requirePhishingResistantForProtected: z.boolean(),
});
export type WebauthnPolicy = z.infer<typeof webauthnPolicySchema>;

/**
 * Whether the allow-list is proven: `verified` when the server has FIDO metadata, and a registration
 * then needs an attestation that chains to its model's roots; `advisory` when it has none, and the
 * model is only what the authenticator says it is.
 */
export const webauthnAttestationModeSchema = z.enum(['verified', 'advisory']);
export type WebauthnAttestationMode = z.infer<typeof webauthnAttestationModeSchema>;

/** 200 body of GET/PUT /api/admin/webauthn/policy. */
export const webauthnPolicyResponseSchema = webauthnPolicySchema.extend({
  updatedBy: z.string().nullable(),
  updatedAt: z.iso.datetime().nullable(),
  attestation: webauthnAttestationModeSchema,
  /** Listed models that the server's FIDO metadata does not describe: with `verified`, none of them can register. */
  aaguidsWithoutMetadata: z.array(z.string()),
});
export type WebauthnPolicyResponse = z.infer<typeof webauthnPolicyResponseSchema>;
