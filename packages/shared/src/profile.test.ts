import { describe, expect, it } from 'vitest';
import { AUTHENTICATION_TYPES } from './constants.js';
import { DEVICE_CAPABILITIES, authenticationTypesOf } from './profile.js';

describe('authenticationTypesOf', () => {
  it('names a device capability by the spec authentication type, in the spec order', () => {
    expect(authenticationTypesOf(['passcode', 'push'])).toEqual(['Push', 'Passcode']);
    expect(authenticationTypesOf(['passcode'])).toEqual(['Passcode']);
    expect(authenticationTypesOf(['push'])).toEqual(['Push']);
    expect(authenticationTypesOf([])).toEqual([]);
  });

  it('gives every authentication type for a device with every capability', () => {
    expect(authenticationTypesOf([...DEVICE_CAPABILITIES])).toEqual([...AUTHENTICATION_TYPES]);
  });
});
