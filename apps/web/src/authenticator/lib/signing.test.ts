import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as shared from '@mfa-portal/shared';
import { signedHeader } from './api';
import { fromBase64url, toBase64url } from './base64url';
import { generateDeviceKey, publicJwk, signText } from './device-key';
import { answerSigningInput, deviceAuthHeader, deviceAuthSigningInput } from '@mfa-portal/shared/authenticator-signing';

/** What the server does: node:crypto over the JWK, the signature in WebCrypto's r‖s form. */
function serverVerifies(jwk: object, text: string, signature: string): boolean {
  const key = createPublicKey({ key: jwk as never, format: 'jwk' });
  return verify('sha256', Buffer.from(text), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(fromBase64url(signature)));
}

describe('base64url', () => {
  it('round-trips every byte value without padding or +/', () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    const text = toBase64url(bytes);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect([...fromBase64url(text)]).toEqual([...bytes]);
    expect(toBase64url(new Uint8Array([251, 255]))).toBe('-_8');
  });
});

describe('the device key', () => {
  it('is a P-256 pair whose private half can never be exported', async () => {
    const keys = await generateDeviceKey();
    expect(keys.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', keys.privateKey)).rejects.toThrow();
    const jwk = await publicJwk(keys);
    expect(Object.keys(jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(shared.devicePublicKeySchema.parse(jwk)).toEqual(jwk);
  });

  it('signs what node:crypto verifies (ECDSA P-256 SHA-256, 64-byte r‖s, base64url)', async () => {
    const keys = await generateDeviceKey();
    const answer = {
      requestId: '0b6f1d2e-3c4a-4b5c-9d6e-7f8091a2b3c4',
      number: '42',
      decision: 'approve' as const,
      time: '2026-01-01T00:00:00.000Z',
    };
    const text = answerSigningInput(answer);
    const signature = await signText(keys.privateKey, text);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(fromBase64url(signature)).toHaveLength(64);
    expect(serverVerifies(await publicJwk(keys), text, signature)).toBe(true);
    expect(serverVerifies(await publicJwk(keys), text.replace('42', '24'), signature)).toBe(false);
  });

  it('writes the Authorization header the server parses, signed over method, path and time', async () => {
    const keys = await generateDeviceKey();
    const header = await signedHeader(
      { deviceId: '7d3f2a4e-1b2c-4d5e-8f90-123456789abc', keys },
      'get',
      '/portal/authenticator/api/requests',
      1_700_000_000_000,
    );
    const parsed = shared.parseDeviceAuthHeader(header);
    expect(parsed).toMatchObject({ deviceId: '7d3f2a4e-1b2c-4d5e-8f90-123456789abc', ts: 1_700_000_000_000 });
    const input = shared.deviceAuthSigningInput('GET', '/portal/authenticator/api/requests', 1_700_000_000_000);
    expect(serverVerifies(await publicJwk(keys), input, parsed!.sig)).toBe(true);
  });

  it('signs exactly the bytes the contract names', () => {
    const answer = {
      requestId: '0b6f1d2e-3c4a-4b5c-9d6e-7f8091a2b3c4',
      number: null,
      decision: 'deny' as const,
      time: '2026-01-01T00:00:00.000Z',
    };
    expect(answerSigningInput(answer)).toBe(
      '{"requestId":"0b6f1d2e-3c4a-4b5c-9d6e-7f8091a2b3c4","number":null,"decision":"deny","time":"2026-01-01T00:00:00.000Z"}',
    );
    expect(deviceAuthSigningInput('post', '/a/b', 5)).toBe('POST\n/a/b\n5');
    expect(deviceAuthHeader('id', 5, 'sig')).toBe('PortalDevice deviceId="id", ts="5", sig="sig"');
  });
});
