import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@mfa-portal/shared';
import { ERROR_STATUS } from '../lib/error-status.js';
import { errorMessage } from '../lib/errors.js';
import { MFA_ERRORS, mfaErrorToAppError } from './errors.js';
import { MfaError } from './port.js';

describe('mfaErrorToAppError', () => {
  it('gives every provider refusal a known code with an English message and a client-error status', () => {
    for (const [reason, code] of Object.entries(MFA_ERRORS)) {
      const status = ERROR_STATUS[code];
      const err = mfaErrorToAppError(new MfaError(reason as keyof typeof MFA_ERRORS));
      expect([err.statusCode, err.code], reason).toEqual([status, code]);
      expect(ERROR_CODES).toContain(code);
      expect(errorMessage(code)).not.toBe('Something went wrong.');
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
  });

  it.each([
    'bypass.count_out_of_range',
    'bypass.validity_too_short',
    'bypass.validity_too_long',
    'bypass.validity_invalid',
    'bypass.reuse_out_of_range',
  ])('answers a refused bypass request as 400 %s naming the field', (reason) => {
    const err = mfaErrorToAppError(new MfaError('bypass_invalid_request', { field: 'validitySeconds', reason }));
    expect([err.statusCode, err.code, err.details]).toEqual([400, reason, { field: 'validitySeconds' }]);
  });

  it('keeps the field and adds extra details', () => {
    const err = mfaErrorToAppError(new MfaError('has_devices'), { maxAgeSeconds: 300 });
    expect([err.statusCode, err.code, err.details]).toEqual([403, 'auth.step_up_required', { maxAgeSeconds: 300 }]);
    expect(mfaErrorToAppError(new MfaError('code_invalid', { field: 'codes' })).details).toEqual({ field: 'codes' });
  });
});
