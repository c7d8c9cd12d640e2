import { z } from 'zod';

/**
 * Stable, dotted error codes. The `errors` translation namespace is keyed by exactly these codes.
 * Add a code here, its English message in locales/en/errors.json, and a test that provokes it.
 */
export const ERROR_CODES = [
  'request.invalid',
  'request.body_too_large',
  'request.unsupported_media_type',
  'request.rate_limited',
  'route.not_found',
  'auth.token_missing',
  'auth.token_invalid',
  'auth.token_expired',
  'auth.forbidden',
  'auth.user_mismatch',
  'locale.not_found',
  'locale.store_full',
  'mfa.user_not_found',
  'mfa.provider_unavailable',
  'server.internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorCodeSchema = z.enum(ERROR_CODES);

/** Every failure the server answers has this shape. */
export const errorBodySchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  details: z
    .object({
      field: z.string().optional(),
      reason: z.string().optional(),
      retryAfterSeconds: z.number().optional(),
    })
    .catchall(z.unknown())
    .optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
