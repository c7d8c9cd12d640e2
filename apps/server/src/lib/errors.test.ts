import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@mfa-portal/shared';
import { errorMessage, missingErrorMessages } from './errors.js';

describe('error messages', () => {
  it('every error code has an English message in locales/en/errors.json', () => {
    expect(missingErrorMessages()).toEqual([]);
    for (const code of ERROR_CODES) expect(errorMessage(code)).not.toBe('Something went wrong.');
  });
});
