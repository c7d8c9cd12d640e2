import type { DevicePublicKey } from '@mfa-portal/shared';
import { toBase64url } from './base64url';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

/**
 * A new device key. The private half is non-extractable: it can sign, but no script (ours included)
 * can ever read it, and IndexedDB keeps it that way because a CryptoKey is stored by structured clone.
 */
export function generateDeviceKey(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(ALGORITHM, false, ['sign', 'verify']);
}

/** The public half as the JWK the server stores (only the members it accepts). */
export async function publicJwk(keys: CryptoKeyPair): Promise<DevicePublicKey> {
  const jwk = await crypto.subtle.exportKey('jwk', keys.publicKey);
  return { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! };
}

/** ECDSA P-256 with SHA-256 over the UTF-8 text: WebCrypto's 64-byte r‖s, base64url. */
export async function signText(privateKey: CryptoKey, text: string): Promise<string> {
  const signature = await crypto.subtle.sign(SIGNING, privateKey, new TextEncoder().encode(text));
  return toBase64url(signature);
}
