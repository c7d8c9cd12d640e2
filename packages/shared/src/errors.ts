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
  'request.headers_too_large',
  'request.timeout',
  'auth.token_missing',
  'auth.token_invalid',
  'auth.token_expired',
  'auth.scope_missing',
  'auth.app_token_not_allowed',
  'auth.forbidden',
  'auth.mfa_required',
  'auth.user_mismatch',
  'locale.not_found',
  'locale.store_full',
  'mfa.user_not_found',
  'mfa.provider_unavailable',
  'mfa.provider_rejected',
  'mfa.provider_rate_limited',
  'mfa.provider_limit_reached',
  'mfa.phone_in_use',
  'mfa.not_supported_by_provider',
  'mfa.user_not_provisioned',
  'mfa.user_disabled',
  'mfa.user_locked_out',
  'mfa.code_invalid',
  'mfa.code_replayed',
  'mfa.no_factor',
  'auth.step_up_required',
  'enrolment.not_found',
  'enrolment.expired',
  'device.not_found',
  'device.last_device_confirmation_required',
  'device.verification_unsupported',
  'device.not_hardware_token',
  'token.not_found',
  'audit.verification_not_found',
  'token.not_available',
  'bypass.not_found',
  'bypass.too_many_live_codes',
  'bypass.count_out_of_range',
  'bypass.validity_too_short',
  'bypass.validity_too_long',
  'bypass.validity_invalid',
  'bypass.reuse_out_of_range',
  'auth.protected_account',
  'admin.user_not_found',
  'admin.verification_required',
  'token.not_assigned',
  'token.assigned',
  'token.retired',
  'token.import_invalid',
  'push.not_found',
  'push.denied',
  'push.fraud',
  'push.timeout',
  'auth.phishing_resistant_required',
  'webauthn.verification_failed',
  'webauthn.challenge_expired',
  'webauthn.challenge_not_found',
  'webauthn.counter_regressed',
  'webauthn.authenticator_not_allowed',
  'webauthn.attestation_untrusted',
  'webauthn.credential_exists',
  'webauthn.no_credentials',
  'scim_token.not_found',
  'scim_token.name_taken',
  'enrolment.pass_required',
  'enrolment_pass.invalid',
  'enrolment_pass.not_found',
  'activity.event_not_found',
  'server.internal',
  'server.unavailable',
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
