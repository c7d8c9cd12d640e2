import { z } from 'zod';
import { DEVICE_CAPABILITIES } from './profile.js';

/**
 * The default sign-in method: which of a person's devices, and how (a push, a passcode, a passkey),
 * the sign-in page offers first. People choose it themselves (GET and PUT /api/me/default-method);
 * until they do, or once their choice is gone, the page offers the safest method they have first.
 */

/** How a device confirms a sign-in: the device capabilities, one method each. */
export const SIGN_IN_METHODS = DEVICE_CAPABILITIES;
export type SignInMethodName = (typeof SIGN_IN_METHODS)[number];

/**
 * The order in which methods are recommended and offered when the person has not chosen: a passkey
 * cannot be tricked by a fake website; a push shows where the sign-in comes from and asks for the number
 * on the screen; a passcode can be typed into a fake page.
 */
export const RECOMMENDED_METHOD_ORDER: readonly SignInMethodName[] = ['webauthn', 'push', 'passcode'];

/** Who decides what the second step of a sign-in offers first. */
export const DEFAULT_METHOD_DECIDERS = [
  /** The portal's own sign-in page: the person's choice. */
  'portal',
  /** The MFA service's own prompt (Duo's): the portal has no say. */
  'mfa_provider',
  /** The organisation's identity provider asks for the second factor (Entra ID): the portal has no say. */
  'identity_provider',
] as const;
export type DefaultMethodDecider = (typeof DEFAULT_METHOD_DECIDERS)[number];

/** Where what is offered first comes from. */
export const DEFAULT_METHOD_SOURCES = [
  /** The person chose it. */
  'chosen',
  /** Never chosen: the safest method they have. */
  'recommended',
  /** Their choice is gone (its device was removed, or it no longer does that): the safest one they have instead. */
  'replaced',
] as const;
export type DefaultMethodSource = (typeof DEFAULT_METHOD_SOURCES)[number];

/** One device and one way of using it. */
export const signInMethodSchema = z.object({
  deviceId: z.string(),
  method: z.enum(SIGN_IN_METHODS),
});
export type SignInMethod = z.infer<typeof signInMethodSchema>;

/** Body of PUT /api/me/default-method. */
export const setDefaultMethodBodySchema = z.object({
  deviceId: z.uuid('must be a device id'),
  method: z.enum(SIGN_IN_METHODS, { message: 'must be push, passcode or webauthn' }),
});
export type SetDefaultMethodBody = z.infer<typeof setDefaultMethodBodySchema>;

/** 200 body of GET and PUT /api/me/default-method. */
export const defaultMethodResponseSchema = z.object({
  decidedBy: z.enum(DEFAULT_METHOD_DECIDERS),
  /** What the sign-in page offers first; null when the portal does not decide, or the person has no device. */
  current: signInMethodSchema.nullable(),
  source: z.enum(DEFAULT_METHOD_SOURCES),
  /** Every method the person can make their default, in the recommended order (empty unless `decidedBy` is `portal`). */
  choices: z.array(signInMethodSchema),
});
export type DefaultMethodResponse = z.infer<typeof defaultMethodResponseSchema>;
