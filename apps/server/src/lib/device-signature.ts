import { createPublicKey, verify } from 'node:crypto';

/**
 * Signatures by a device key of the portal's authenticator app: ECDSA on P-256 with SHA-256, the
 * signature in the 64-byte r‖s form WebCrypto produces (IEEE P1363), base64url. The app signs its
 * requests and its answers to pushes; the server checks them against the public key (a JWK) it keeps.
 */

const COORDINATE = /^[A-Za-z0-9_-]{43}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{86}$/;

/** An EC P-256 public key as a JWK; anything else is not one (checked, never trusted). */
export interface DeviceJwk {
  kty: string;
  crv: string;
  x: string;
  y: string;
}

/**
 * True only when `signature` is a valid signature of `input` (UTF-8) by `jwk`. Garbage of any kind (a
 * key that is not a P-256 point, a signature of the wrong length or alphabet, a value that is not a
 * string) is simply false: it never throws, so a caller cannot tell a malformed key from a bad signature.
 */
export function verifyDeviceSignature(jwk: unknown, input: string, signature: unknown): boolean {
  if (typeof input !== 'string' || typeof signature !== 'string' || !SIGNATURE.test(signature)) return false;
  const k = jwk as Partial<DeviceJwk> | null;
  if (!k || typeof k !== 'object' || k.kty !== 'EC' || k.crv !== 'P-256') return false;
  if (typeof k.x !== 'string' || typeof k.y !== 'string' || !COORDINATE.test(k.x) || !COORDINATE.test(k.y)) return false;
  try {
    // createPublicKey checks that the point is on the curve; only the four members are passed on.
    const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: k.x, y: k.y }, format: 'jwk' });
    return verify('sha256', Buffer.from(input, 'utf8'), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}
