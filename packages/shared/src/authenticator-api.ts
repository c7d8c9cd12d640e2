import { z } from 'zod';
import { deviceSchema } from './profile.js';

export * from './authenticator-signing.js';

/**
 * The portal's own authenticator app (an installable web app served at `<base>authenticator/`): push
 * with number matching and passcodes, no vendor cloud. The portal (desktop) side starts an activation
 * and learns when the app used it; the app side speaks to `<base>authenticator/api/`, authenticated by
 * a signature of its device key (ECDSA P-256 with SHA-256, the 64-byte r‖s form WebCrypto produces,
 * base64url), never by a bearer token.
 */

/** The `app` of a device that is the portal's own authenticator app. */
export const PORTAL_AUTHENTICATOR_APP = 'portal_authenticator' as const;
/** How long an activation link stays usable unless AUTHENTICATOR_ACTIVATION_MINUTES says otherwise. */
export const AUTHENTICATOR_ACTIVATION_MINUTES = 15;
/** Where the app lives below the portal's base path (its scope, manifest and service worker). */
export const AUTHENTICATOR_APP_PATH = 'authenticator/';
/** The app's API below the portal's base path. */
export const AUTHENTICATOR_API_PATH = 'authenticator/api/';

// ---------- the portal (desktop) side, bearer token, under /api/me ----------

/** 201 body of POST /api/me/devices/authenticator-app: show the QR code and the same link as text. */
export const authenticatorActivationSchema = z.object({
  activationId: z.uuid(),
  /** `<public url><base>authenticator/#activate=<token>`: the token rides in the fragment, never sent to a server log. */
  activationUrl: z.string(),
  /** The activation link as a QR code (an SVG document). */
  qrSvg: z.string(),
  expiresAt: z.iso.datetime(),
});
export type AuthenticatorActivation = z.infer<typeof authenticatorActivationSchema>;

export const activationIdParamsSchema = z.object({ activationId: z.uuid('must be an activation id') });

export const ACTIVATION_STATES = ['waiting', 'activated', 'expired'] as const;
/** 200 body of GET /api/me/devices/authenticator-app/:activationId: poll until it is no longer `waiting`. */
export const authenticatorActivationStateSchema = z.object({
  state: z.enum(ACTIVATION_STATES),
  expiresAt: z.iso.datetime(),
  /** The new device once activated (name it with PATCH /api/me/devices/:id). */
  device: deviceSchema.nullable(),
});
export type AuthenticatorActivationState = z.infer<typeof authenticatorActivationStateSchema>;

// ---------- the app side, device-signed, under <base>authenticator/api/ ----------

/** An EC P-256 public key as a JWK (WebCrypto's exportKey('jwk') of the public half). */
export const devicePublicKeySchema = z
  .object({
    kty: z.literal('EC', 'must be an EC key'),
    crv: z.literal('P-256', 'must be a P-256 key'),
    x: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be 32 bytes, base64url'),
    y: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be 32 bytes, base64url'),
  })
  .strip();
export type DevicePublicKey = z.infer<typeof devicePublicKeySchema>;

/** A browser's PushSubscription.toJSON(): where Web Push delivers, and the keys that encrypt for it. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}$/, 'must be a P-256 public key, base64url'),
    auth: z.string().regex(/^[A-Za-z0-9_-]{16,32}$/, 'must be 16 bytes, base64url'),
  }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

export const AUTHENTICATOR_PLATFORMS = ['ios', 'android', 'other'] as const;

/** Body of POST <base>authenticator/api/activate (no authorization: the token is the proof). */
export const activateBodySchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the token of an activation link'),
  publicKey: devicePublicKeySchema,
  platform: z.enum(AUTHENTICATOR_PLATFORMS, { message: 'must be ios, android or other' }),
  /** What the phone calls itself (e.g. "Pixel 8"), the device's first name; the user can rename it. */
  deviceName: z.string().trim().min(1).max(64).optional(),
  pushSubscription: pushSubscriptionSchema.nullable().optional(),
});
export type ActivateBody = z.infer<typeof activateBodySchema>;

/** 201 body of the activation: what the app keeps for this account beside its device key. */
export const activateResponseSchema = z.object({
  deviceId: z.uuid(),
  account: z.object({ upn: z.string(), displayName: z.string() }),
  /** The passcode seed (TOTP, RFC 6238): the app shows passcodes offline. */
  passcode: z.object({
    secret: z.string(),
    algorithm: z.literal('SHA1'),
    digits: z.literal(6),
    period: z.literal(30),
    issuer: z.string(),
  }),
});
export type ActivateResponse = z.infer<typeof activateResponseSchema>;

/** 200 body of GET <base>authenticator/api/info (public). */
export const authenticatorInfoSchema = z.object({
  portalName: z.string(),
  /** The VAPID public key (base64url) for PushManager.subscribe; null when Web Push is off. */
  vapidPublicKey: z.string().nullable(),
  pushTimeoutSeconds: z.number().int().positive(),
});
export type AuthenticatorInfo = z.infer<typeof authenticatorInfoSchema>;

export const PUSH_REQUEST_KINDS = ['sign_in', 'step_up', 'device_test', 'helpdesk_check'] as const;
export type PushRequestKind = (typeof PUSH_REQUEST_KINDS)[number];

/** A push waiting for an answer, as the app shows it: what, where and when, never the number. */
export const pendingPushRequestSchema = z.object({
  id: z.uuid(),
  /** The account it is for (an app can hold several). */
  account: z.string(),
  deviceId: z.uuid(),
  kind: z.enum(PUSH_REQUEST_KINDS),
  /** The application asking (the portal's name, or the client of a sign-in). */
  application: z.string(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  ipAddress: z.string().nullable(),
  /** The place IP_LOCATIONS names for that address. */
  location: z.string().nullable(),
  /** For a helpdesk check: who at the helpdesk asked. */
  requestedBy: z.string().nullable(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type PendingPushRequest = z.infer<typeof pendingPushRequestSchema>;

/** 200 body of GET <base>authenticator/api/requests. */
export const pendingPushRequestsSchema = z.object({ requests: z.array(pendingPushRequestSchema) });

export const pushRequestParamsSchema = z.object({ id: z.uuid('must be a request id') });

export const PUSH_DECISIONS = ['approve', 'deny'] as const;

/** What the app signs: exactly these members, in this order (see {@link answerSigningInput}). */
export const pushAnswerSchema = z.object({
  requestId: z.uuid('must be a request id'),
  /** The two digits the person typed; null when denying. */
  number: z
    .string()
    .regex(/^[0-9]{2}$/, 'must be the two digits shown in the browser')
    .nullable(),
  decision: z.enum(PUSH_DECISIONS, { message: 'must be approve or deny' }),
  /** When the person answered (ISO 8601). */
  time: z.iso.datetime(),
});
export type PushAnswer = z.infer<typeof pushAnswerSchema>;

/** Body of POST <base>authenticator/api/requests/:id/answer. */
export const pushAnswerBodySchema = z.object({
  answer: pushAnswerSchema,
  /** ECDSA P-256 SHA-256 over {@link answerSigningInput}, r‖s, base64url. */
  signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'must be a P-256 signature, base64url'),
});
export type PushAnswerBody = z.infer<typeof pushAnswerBodySchema>;

/** 200 body of the answer. `reportable`: a denial can be reported as "This wasn't me". */
export const pushAnswerResponseSchema = z.object({ state: z.enum(['approved', 'denied']), reportable: z.boolean() });
export type PushAnswerResponse = z.infer<typeof pushAnswerResponseSchema>;

/** Body of PUT <base>authenticator/api/push-subscription: notifications allowed (or withdrawn) later. */
export const pushSubscriptionBodySchema = z.object({ pushSubscription: pushSubscriptionSchema.nullable() });

/** 200 body of POST <base>authenticator/api/requests/:id/report ("This wasn't me"). */
export const pushReportResponseSchema = z.object({ reported: z.literal(true) });
