import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deviceAuthHeader, deviceAuthSigningInput, type DevicePublicKey } from '@mfa-portal/shared';
import type { MfaProvider } from '../../mfa/port.js';
import { deviceAuth, verifyDeviceSignature } from './device-auth.js';

const DEVICE = '22222222-2222-4222-8222-222222222222';

async function softwareDevice() {
  const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const jwk = (await webcrypto.subtle.exportKey('jwk', keys.publicKey)) as DevicePublicKey;
  const sign = async (input: string) =>
    Buffer.from(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, Buffer.from(input))).toString('base64url');
  return { jwk, sign };
}

function providerWith(jwk: DevicePublicKey, status: 'active' | 'disabled' = 'active') {
  return {
    name: 'builtin',
    capabilities: { authenticatorApp: true },
    authenticatorApp: {
      deviceKey: async (id: string) => (id === DEVICE ? { username: 'alice@example.com', deviceId: DEVICE, publicKey: jwk } : null),
    },
    getAccount: async () => ({ status, statusReason: null, lockedUntil: null, deviceCount: 1 }),
  } as unknown as MfaProvider;
}

const req = (authorization: string | undefined, url = '/authenticator/api/requests?x=1') =>
  ({ headers: { authorization }, method: 'GET', url, raw: { url }, id: 'r1', ip: '127.0.0.1' }) as never;

describe('device authentication', () => {
  it('verifies a WebCrypto signature (r‖s) and refuses another input', async () => {
    const d = await softwareDevice();
    const sig = await d.sign('hello');
    expect(verifyDeviceSignature(d.jwk, 'hello', sig)).toBe(true);
    expect(verifyDeviceSignature(d.jwk, 'hellO', sig)).toBe(false);
    expect(verifyDeviceSignature(d.jwk, 'hello', 'A'.repeat(86))).toBe(false);
  });

  it('accepts a signed request (path without the query) and names the device', async () => {
    const d = await softwareDevice();
    const ts = Date.now();
    const sig = await d.sign(deviceAuthSigningInput('GET', '/authenticator/api/requests', ts));
    const request = req(deviceAuthHeader(DEVICE, ts, sig)) as { device?: unknown };
    await deviceAuth(providerWith(d.jwk))(request as never);
    expect(request.device).toMatchObject({ deviceId: DEVICE, upn: 'alice@example.com' });
  });

  it.each([
    ['no header', async () => undefined],
    [
      'an old signature',
      async (d: Awaited<ReturnType<typeof softwareDevice>>) => {
        const ts = Date.now() - 10 * 60_000;
        return deviceAuthHeader(DEVICE, ts, await d.sign(deviceAuthSigningInput('GET', '/authenticator/api/requests', ts)));
      },
    ],
    [
      'another path',
      async (d: Awaited<ReturnType<typeof softwareDevice>>) => {
        const ts = Date.now();
        return deviceAuthHeader(DEVICE, ts, await d.sign(deviceAuthSigningInput('GET', '/authenticator/api/events', ts)));
      },
    ],
    [
      'an unknown device',
      async (d: Awaited<ReturnType<typeof softwareDevice>>) => {
        const ts = Date.now();
        return deviceAuthHeader(
          '33333333-3333-4333-8333-333333333333',
          ts,
          await d.sign(deviceAuthSigningInput('GET', '/authenticator/api/requests', ts)),
        );
      },
    ],
  ])('refuses %s with 401 authenticator.device_unauthorized', async (_name, header) => {
    const d = await softwareDevice();
    await expect(deviceAuth(providerWith(d.jwk))(req(await header(d)))).rejects.toMatchObject({
      code: 'authenticator.device_unauthorized',
      statusCode: 401,
    });
  });

  it("refuses a disabled owner's device clearly", async () => {
    const d = await softwareDevice();
    const ts = Date.now();
    const header = deviceAuthHeader(DEVICE, ts, await d.sign(deviceAuthSigningInput('GET', '/authenticator/api/requests', ts)));
    await expect(deviceAuth(providerWith(d.jwk, 'disabled'))(req(header))).rejects.toMatchObject({ code: 'mfa.user_disabled' });
  });
});
