import type { ErrorCode } from '@mfa-portal/shared';
import { AppError } from '../lib/errors.js';
import { MfaError, type MfaErrorCode } from './port.js';

/** The stable error code of each provider refusal (its HTTP status is in `ERROR_STATUS`). */
export const MFA_ERRORS: Record<Exclude<MfaErrorCode, 'bypass_invalid_request'>, ErrorCode> = {
  not_provisioned: 'mfa.user_not_provisioned',
  user_disabled: 'mfa.user_disabled',
  user_locked_out: 'mfa.user_locked_out',
  // "Adding a device when one already exists" without a fresh step-up.
  has_devices: 'auth.step_up_required',
  device_not_found: 'device.not_found',
  last_device: 'device.last_device_confirmation_required',
  not_hardware_token: 'device.not_hardware_token',
  verification_unsupported: 'device.verification_unsupported',
  enrolment_not_found: 'enrolment.not_found',
  enrolment_expired: 'enrolment.expired',
  code_invalid: 'mfa.code_invalid',
  token_not_found: 'token.not_found',
  token_not_available: 'token.not_available',
  token_not_assigned: 'token.not_assigned',
  token_assigned: 'token.assigned',
  token_retired: 'token.retired',
  bypass_not_found: 'bypass.not_found',
  too_many_live_codes: 'bypass.too_many_live_codes',
  not_supported: 'mfa.not_supported_by_provider',
  invalid_request: 'request.invalid',
  push_not_found: 'push.not_found',
  credential_exists: 'webauthn.credential_exists',
  counter_regressed: 'webauthn.counter_regressed',
  phone_in_use: 'mfa.phone_in_use',
  limit_reached: 'mfa.provider_limit_reached',
  activation_invalid: 'authenticator.activation_invalid',
  activation_used: 'authenticator.activation_used',
  activation_expired: 'authenticator.activation_expired',
  push_signature_invalid: 'push.signature_invalid',
  push_number_mismatch: 'push.number_mismatch',
  push_expired: 'push.expired',
  push_already_answered: 'push.already_answered',
};

const BYPASS_PROBLEM_CODES = new Set<ErrorCode>([
  'bypass.count_out_of_range',
  'bypass.validity_too_short',
  'bypass.validity_too_long',
  'bypass.validity_invalid',
  'bypass.reuse_out_of_range',
]);

/** The AppError answering a provider refusal (`extra` adds details, e.g. the step-up maximum age). */
export function mfaErrorToAppError(err: MfaError, extra: Record<string, unknown> = {}): AppError {
  if (err.code === 'bypass_invalid_request') {
    const code = BYPASS_PROBLEM_CODES.has(err.details.reason as ErrorCode) ? (err.details.reason as ErrorCode) : 'request.invalid';
    return new AppError({ code, details: { ...(err.details.field ? { field: err.details.field } : {}) } });
  }
  const code = MFA_ERRORS[err.code];
  const details = {
    ...(err.details.field ? { field: err.details.field } : {}),
    ...(err.details.reason ? { reason: err.details.reason } : {}),
    ...extra,
  };
  return new AppError({ code, ...(Object.keys(details).length ? { details } : {}) });
}

/**
 * The one translation of a failure into the answer: an AppError as it is, a provider refusal by
 * {@link MFA_ERRORS} (`stepUpMaxAgeSeconds` tells the client how long a step-up lasts when one is
 * needed), anything else null (a 500, logged).
 */
export function toAppError(err: unknown, opts: { stepUpMaxAgeSeconds?: number } = {}): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof MfaError)
    return mfaErrorToAppError(
      err,
      err.code === 'has_devices' && opts.stepUpMaxAgeSeconds !== undefined ? { maxAgeSeconds: opts.stepUpMaxAgeSeconds } : {},
    );
  return null;
}
