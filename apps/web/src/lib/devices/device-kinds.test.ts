import { describe, expect, it } from 'vitest';
import { addableKinds, allowedKinds, kindsOnProvider } from './device-kinds';
import { capabilitiesOf, capabilitiesWithoutPush } from '../test/fake-api';

describe('the kinds of device offered', () => {
  it('on the builtin provider: passkey, Portal Authenticator, authenticator app, hardware token; no phone by number', () => {
    expect(kindsOnProvider(capabilitiesOf('builtin'))).toEqual(['passkey', 'portal_authenticator', 'authenticator', 'token']);
    expect(addableKinds(capabilitiesOf('builtin'))).toEqual({
      kinds: ['passkey', 'portal_authenticator', 'authenticator', 'token'],
      recommended: 'passkey',
      isPending: false,
    });
  });

  it("on Duo: a phone (recommended), a token, and last the passkey, added in Duo's own prompt", () => {
    expect(addableKinds(capabilitiesOf('duo'))).toEqual({ kinds: ['phone', 'token', 'passkey'], recommended: 'phone', isPending: false });
  });

  it('without any phone channel: no Portal Authenticator and no phone', () => {
    expect(kindsOnProvider(capabilitiesWithoutPush())).toEqual(['passkey', 'authenticator', 'token']);
  });

  it('offers nothing until the capabilities are known', () => {
    expect(addableKinds(undefined)).toEqual({ kinds: [], recommended: null, isPending: true });
  });

  it("keeps what a person's policy allows, in the recommended order, and recommends the first of it", () => {
    const offered = kindsOnProvider(capabilitiesOf('builtin'));
    expect(allowedKinds(offered, null)).toEqual(offered);
    expect(allowedKinds(offered, ['token', 'authenticator'])).toEqual(['authenticator', 'token']);
    expect(allowedKinds(offered, ['phone'])).toEqual([]);
    expect(addableKinds(capabilitiesOf('builtin'), ['token', 'portal_authenticator'])).toMatchObject({
      kinds: ['portal_authenticator', 'token'],
      recommended: 'portal_authenticator',
    });
  });
});
