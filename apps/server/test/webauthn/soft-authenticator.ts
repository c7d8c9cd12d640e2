import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';

/**
 * A software FIDO2 authenticator for server tests (no browser): an ES256 key pair per credential,
 * `none` attestation, and the client's part (clientDataJSON) built as a browser would. Each knob lets
 * a test answer wrongly on purpose: another origin, another RP ID, no user verification, a counter
 * that goes back, a signature over something else.
 */

const b64url = (buf: Uint8Array) => Buffer.from(buf).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  signCount: number;
}

export interface Options {
  origin?: string;
  rpId?: string;
  userVerified?: boolean;
  /** Sign count to put in this response (default: one more than the last). */
  signCount?: number;
}

export function createSoftAuthenticator(defaults: {
  origin: string;
  rpId: string;
  aaguid?: string;
  /** Backup eligible (a synced passkey). */
  backupEligible?: boolean;
  transports?: string[];
  attachment?: 'platform' | 'cross-platform';
}) {
  const aaguid = Buffer.from((defaults.aaguid ?? '00000000-0000-0000-0000-000000000000').replace(/-/g, ''), 'hex');
  const credentials: SoftCredential[] = [];

  function authData(rpId: string, flags: number, signCount: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(signCount);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  function flagsOf(o: Options, attested: boolean): number {
    let f = 0x01; // user present
    if (o.userVerified ?? true) f |= 0x04;
    if (defaults.backupEligible) f |= 0x08 | 0x10;
    if (attested) f |= 0x40;
    return f;
  }

  function cosePublicKey(publicKey: KeyObject): Uint8Array {
    const jwk = publicKey.export({ format: 'jwk' });
    return encodeCBOR(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
  }

  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');

  return {
    credentials,
    /** Answers creation options (as the portal sends them) with a new credential. */
    register(options: { challenge: string; rp?: { id?: string } }, o: Options = {}) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const id = randomBytes(32);
      const cred: SoftCredential = { id, privateKey, publicKey, signCount: o.signCount ?? 1 };
      const idLen = Buffer.alloc(2);
      idLen.writeUInt16BE(id.length);
      const attested = Buffer.concat([aaguid, idLen, id, Buffer.from(cosePublicKey(publicKey))]);
      const data = authData(o.rpId ?? defaults.rpId, flagsOf(o, true), cred.signCount, attested);
      const attestationObject = encodeCBOR(
        new Map<string, CBORType>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, CBORType>()],
          ['authData', new Uint8Array(data)],
        ]),
      );
      credentials.push(cred);
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, o.origin ?? defaults.origin)),
          attestationObject: b64url(attestationObject),
          transports: defaults.transports ?? ['internal'],
        },
        ...(defaults.attachment ? { authenticatorAttachment: defaults.attachment } : {}),
        clientExtensionResults: {},
      };
    },
    /** Answers request options with an assertion by `cred` (default: the last registered). */
    assert(options: { challenge: string }, o: Options & { credential?: SoftCredential } = {}) {
      const cred = o.credential ?? credentials.at(-1);
      if (!cred) throw new Error('no credential registered');
      cred.signCount = o.signCount ?? cred.signCount + 1;
      const data = authData(o.rpId ?? defaults.rpId, flagsOf(o, false), cred.signCount);
      const cdj = clientData('webauthn.get', options.challenge, o.origin ?? defaults.origin);
      const signature = sign('sha256', Buffer.concat([data, sha256(cdj)]), cred.privateKey);
      return {
        id: b64url(cred.id),
        rawId: b64url(cred.id),
        type: 'public-key' as const,
        response: { clientDataJSON: b64url(cdj), authenticatorData: b64url(data), signature: b64url(signature) },
        clientExtensionResults: {},
      };
    },
  };
}
