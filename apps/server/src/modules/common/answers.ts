import { AppError } from '../../lib/errors.js';
import { VERIFY_FAILURE_CODES, type VerificationResult } from '../verification/verification.service.js';

/** Answers and audit details several modules give in the same words. */

export const iso = (d: Date) => d.toISOString();

export function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError({
    code: 'request.rate_limited',
    details: { retryAfterSeconds },
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

export function lockedOut(reason: string | null, retryAfterSeconds: number | null): AppError {
  return new AppError({
    code: 'mfa.user_locked_out',
    details: { ...(reason ? { reason } : {}), ...(retryAfterSeconds ? { retryAfterSeconds } : {}) },
    headers: retryAfterSeconds ? { 'retry-after': String(retryAfterSeconds) } : {},
  });
}

/** The error answering a failed verification. */
export function verificationError(result: Extract<VerificationResult, { ok: false }>): AppError {
  if (result.reason === 'rate_limited') return rateLimited(result.retryAfterSeconds);
  if (result.justLocked || result.reason === 'user_locked_out') return lockedOut(result.statusReason, result.retryAfterSeconds);
  const code = VERIFY_FAILURE_CODES[result.reason];
  switch (result.reason) {
    case 'code_invalid':
    case 'code_replayed':
      return new AppError({ code, details: { field: 'code' } });
    case 'user_disabled':
      return new AppError({ code, ...(result.statusReason ? { details: { reason: result.statusReason } } : {}) });
    case 'not_provisioned':
    case 'no_factor':
      return new AppError({ code });
    case 'not_allowed':
      return new AppError({ code, ...(result.statusReason ? { details: { reason: result.statusReason } } : {}) });
  }
}

export const deviceDetails = (d: { id: string; kind: string; name: string; serial: string | null }) => ({
  deviceId: d.id,
  kind: d.kind,
  deviceName: d.name,
  ...(d.serial ? { serial: d.serial } : {}),
});
