import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalIdOf } from '../../src/mfa/duo/ids.js';
import type { DuoStandin } from './duo-standin.js';
import { providerFor, startStandin } from './support.js';

/** WebAuthn credentials read as Duo describes them: the kind from `registered_as`, "last used" from `date_last_used`. */

let standin: DuoStandin;

beforeAll(async () => {
  standin = await startStandin();
});
afterAll(() => standin.close());

describe('WebAuthn credentials at Duo', () => {
  it('the kind comes from registered_as (not the label), last use from date_last_used', async () => {
    const { provider: duo } = providerFor(standin);
    const user = standin.addUser({ username: 'wendy@example.com' });
    // A label that reads like a passkey, registered as a security key; and the other way round.
    const key = standin.addWebauthnCredential({
      userId: user.user_id,
      name: 'Desk key',
      label: 'YubiKey 5 NFC',
      registeredAs: 'Security Key',
      dateLastUsed: Date.parse('2030-02-03T04:05:06Z') / 1000,
    });
    const platform = standin.addWebauthnCredential({
      userId: user.user_id,
      name: 'Laptop',
      label: 'Security Key (built-in)',
      registeredAs: 'Platform Authenticator',
    });
    const devices = await duo.listDevices('wendy@example.com');
    expect(devices.find((d) => d.id === portalIdOf('webauthn', key.webauthnkey))).toMatchObject({
      kind: 'security_key',
      lastUsedAt: '2030-02-03T04:05:06.000Z',
    });
    expect(devices.find((d) => d.id === portalIdOf('webauthn', platform.webauthnkey))).toMatchObject({ kind: 'passkey', lastUsedAt: null });
  });
});
