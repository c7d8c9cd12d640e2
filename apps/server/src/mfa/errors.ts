import type { ErrorCode } from '@mfa-portal/shared';
import { AppError } from '../lib/errors.js';
import { MfaError, type MfaErrorCode } from './port.js';

/** HTTP status and stable error code of each provider refusal. */
export const MFA_ERRORS: Record<Exclude<MfaErrorCode, 'bypass_invalid_request'>, { status: number; code: ErrorCode }> = {
  not_provisioned: { status: 404, code: 'mfa.user_not_provisioned' },
  user_disabled: { status: 403, code: 'mfa.user_disabled' },
  user_locked_out: { status: 403, code: 'mfa.user_locked_out' },
  // "Adding a device when one already exists" without a fresh step-up.
  has_devices: { status: 403, code: 'auth.step_up_required' },
  device_not_found: { status: 404, code: 'device.not_found' },
  last_device: { status: 409, code: 'device.last_device_confirmation_required' },
  not_hardware_token: { status: 409, code: 'device.not_hardware_token' },
  verification_unsupported: { status: 409, code: 'device.verification_unsupported' },
  enrolment_not_found: { status: 404, code: 'enrolment.not_found' },
  enrolment_expired: { status: 410, code: 'enrolment.expired' },
  code_invalid: { status: 422, code: 'mfa.code_invalid' },
  token_not_found: { status: 404, code: 'token.not_found' },
  token_not_available: { status: 409, code: 'token.not_available' },
  bypass_not_found: { status: 404, code: 'bypass.not_found' },
  too_many_live_codes: { status: 409, code: 'bypass.too_many_live_codes' },
  not_supported: { status: 409, code: 'mfa.not_supported_by_provider' },
  push_not_found: { status: 404, code: 'push.not_found' },
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
    return new AppError(400, code, undefined, { ...(err.details.field ? { field: err.details.field } : {}) });
  }
  const { status, code } = MFA_ERRORS[err.code];
  const details = {
    ...(err.details.field ? { field: err.details.field } : {}),
    ...(err.details.reason ? { reason: err.details.reason } : {}),
    ...extra,
  };
  return new AppError(status, code, undefined, Object.keys(details).length ? details : undefined);
}
