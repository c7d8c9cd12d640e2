import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyDeviceSignature } from './device-signature.js';

/** The app's signatures (WebCrypto ECDSA P-256, r‖s) checked by node:crypto; garbage is false, never a throw. */
describe('verifyDeviceSignature', () => {
  async function device() {
    const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const jwk = await webcrypto.subtle.exportKey('jwk', pair.publicKey);
    const sign = async (input: string) =>
      Buffer.from(
        await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, new TextEncoder().encode(input)),
      ).toString('base64url');
    return { jwk, sign };
  }

  it('accepts a signature of the input by the key, and nothing else', async () => {
    const a = await device();
    const b = await device();
    const sig = await a.sign('POST\n/authenticator/api/requests\n1700000000000');
    expect(verifyDeviceSignature(a.jwk, 'POST\n/authenticator/api/requests\n1700000000000', sig)).toBe(true);
    expect(verifyDeviceSignature(a.jwk, 'POST\n/authenticator/api/requests\n1700000000001', sig)).toBe(false);
    expect(verifyDeviceSignature(b.jwk, 'POST\n/authenticator/api/requests\n1700000000000', sig)).toBe(false);
  });

  it('is false for garbage of every kind', async () => {
    const a = await device();
    const sig = await a.sign('x');
    const offCurve = { ...a.jwk, y: a.jwk.x };
    for (const [jwk, signature] of [
      [null, sig],
      ['key', sig],
      [{ ...a.jwk, crv: 'P-384' }, sig],
      [{ ...a.jwk, kty: 'RSA' }, sig],
      [{ ...a.jwk, x: 'short' }, sig],
      [offCurve, sig],
      [a.jwk, sig.slice(1)],
      [a.jwk, `${sig.slice(0, 85)}!`],
      [a.jwk, 'A'.repeat(86)],
      [a.jwk, 42],
      [a.jwk, undefined],
    ] as const)
      expect(verifyDeviceSignature(jwk, 'x', signature)).toBe(false);
  });
});
