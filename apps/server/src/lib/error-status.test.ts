import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@mfa-portal/shared';
import { ERROR_STATUS } from './error-status.js';
import { AppError } from './errors.js';

describe('ERROR_STATUS', () => {
  it('gives every error code an HTTP error status', () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_STATUS[code], code).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code], code).toBeLessThan(600);
    }
  });

  it('is where an AppError takes its status from', () => {
    expect(new AppError({ code: 'device.not_found' }).statusCode).toBe(404);
    expect(new AppError({ code: 'request.rate_limited', headers: { 'retry-after': '3' } }).headers).toEqual({ 'retry-after': '3' });
  });
});
