import 'reflect-metadata';
import { createHash, createPrivateKey, randomBytes, sign, webcrypto, type KeyObject } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { decodeCBOR, encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';

/**
 * A test PKI for passkey attestation (no browser, nothing fetched): a root CA, the FIDO MDS3 BLOB it
 * vouches for (a JWT signed by a BLOB signing certificate under the root), attestation CAs and batch
 * certificates for authenticator models, and `packed` attestation added to what the software
 * authenticator (soft-authenticator.ts) answers. Chromium's virtual authenticator is described as it
 * really attests: AAGUID 01020304-0506-0708-0102-030405060708 and one self-issued "Batch Certificate"
 * (O=Chromium) whose key is fixed in Chromium while the certificate is made anew (its notAfter moves);
 * metadata therefore names that key's certificate as the root, and the chain is checked by key and name.
 */

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKeyPair = webcrypto.CryptoKeyPair;

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const FIDO_AAGUID_OID = '1.3.6.1.4.1.45724.1.1.4';
export const CHROMIUM_VIRTUAL_AAGUID = '01020304-0506-0708-0102-030405060708';

export interface Issuer {
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
  /** The private key for node:crypto. */
  privateKey: KeyObject;
}

const day = 24 * 3600 * 1000;
const b64 = (cert: x509.X509Certificate) => Buffer.from(cert.rawData).toString('base64');
export const pemOf = (cert: x509.X509Certificate) => cert.toString('pem');

async function nodeKey(keys: CryptoKeyPair): Promise<KeyObject> {
  return createPrivateKey({ key: Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)), format: 'der', type: 'pkcs8' });
}

async function certificate(opts: {
  subject: string;
  issuer?: Issuer;
  ca: boolean;
  keys?: CryptoKeyPair;
  notBefore?: Date;
  notAfter?: Date;
  aaguid?: string;
}): Promise<Issuer> {
  const keys = opts.keys ?? ((await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair);
  const extensions: x509.Extension[] = [new x509.BasicConstraintsExtension(opts.ca, undefined, true)];
  if (opts.ca) extensions.push(new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true));
  if (opts.aaguid)
    // The value is an OCTET STRING holding the 16 bytes.
    extensions.push(new x509.Extension(FIDO_AAGUID_OID, false, Buffer.concat([Buffer.from([0x04, 0x10]), aaguidBytes(opts.aaguid)])));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomBytes(8)
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    subject: opts.subject,
    issuer: opts.issuer?.cert.subject ?? opts.subject,
    notBefore: opts.notBefore ?? new Date(Date.now() - day),
    notAfter: opts.notAfter ?? new Date(Date.now() + 365 * day),
    signingAlgorithm: EC,
    publicKey: keys.publicKey,
    signingKey: opts.issuer?.keys.privateKey ?? keys.privateKey,
    extensions,
  });
  return { cert, keys, privateKey: await nodeKey(keys) };
}

export const aaguidBytes = (aaguid: string) => Buffer.from(aaguid.replace(/-/g, ''), 'hex');

export const createRootCa = (name: string, validity?: { notBefore?: Date; notAfter?: Date }) =>
  certificate({ subject: `CN=${name}, O=Portal Tests, C=GB`, ca: true, ...validity });

export const createIntermediateCa = (issuer: Issuer, name: string) =>
  certificate({ subject: `CN=${name}, O=Portal Tests, C=GB`, issuer, ca: true });

/** An attestation (batch) certificate as `packed` requires: OU=Authenticator Attestation, not a CA, the model's AAGUID. */
export const createBatchCertificate = (issuer: Issuer, aaguid: string, opts: { notAfter?: Date } = {}) =>
  certificate({
    subject: 'CN=Batch Certificate, OU=Authenticator Attestation, O=Portal Tests, C=GB',
    issuer,
    ca: false,
    aaguid,
    ...opts,
  });

/** Chromium's virtual authenticator's batch certificate: self-issued, not a CA, no AAGUID extension; `keys` fixed, dates free. */
export const createChromiumLikeBatch = (keys?: CryptoKeyPair, notAfter?: Date) =>
  certificate({
    subject: 'C=US, O=Chromium, OU=Authenticator Attestation, CN=Batch Certificate',
    ca: false,
    notBefore: new Date('2017-07-14T02:40:00Z'),
    ...(keys ? { keys } : {}),
    ...(notAfter ? { notAfter } : {}),
  });

/** A FIDO metadata statement for a FIDO2 model, whose attestations chain to `roots`. */
export function metadataStatement(aaguid: string, roots: x509.X509Certificate[], description = `Test model ${aaguid}`) {
  return {
    legalHeader: 'Test metadata, not for production.',
    aaguid,
    description,
    authenticatorVersion: 1,
    protocolFamily: 'fido2',
    schema: 3,
    upv: [{ major: 1, minor: 1 }],
    authenticationAlgorithms: ['secp256r1_ecdsa_sha256_raw'],
    publicKeyAlgAndEncodings: ['cose'],
    attestationTypes: ['basic_full'],
    userVerificationDetails: [[{ userVerificationMethod: 'presence_internal' }]],
    keyProtection: ['hardware', 'secure_element'],
    matcherProtection: ['on_chip'],
    attachmentHint: ['external', 'wired'],
    tcDisplay: [],
    attestationRootCertificates: roots.map(b64),
  };
}

/** An MDS3 BLOB: the payload signed (ES256) by `signer`, whose chain up to (not including) the root goes in x5c. */
export async function signBlob(
  entries: unknown[],
  signer: Issuer,
  chain: x509.X509Certificate[] = [],
  opts: { no?: number; nextUpdate?: string } = {},
): Promise<string> {
  const header = { alg: 'ES256', typ: 'JWT', x5c: [signer.cert, ...chain].map(b64) };
  const payload = {
    legalHeader: 'Test BLOB, not for production.',
    no: opts.no ?? 1,
    nextUpdate: opts.nextUpdate ?? new Date(Date.now() + 30 * day).toISOString().slice(0, 10),
    entries,
  };
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  const signature = sign('sha256', Buffer.from(input), { key: signer.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** A BLOB entry: the statement and its status reports. */
export const blobEntry = (statement: ReturnType<typeof metadataStatement>, statuses: string[] = ['FIDO_CERTIFIED']) => ({
  aaguid: statement.aaguid,
  metadataStatement: statement,
  statusReports: statuses.map((status) => ({ status, effectiveDate: '2024-01-01' })),
  timeOfLastStatusChange: '2024-01-01',
});

interface Registration {
  response: { clientDataJSON: string; attestationObject: string };
}

/**
 * Turns a software authenticator's `none` registration into a `packed` one: signed by `attestation`'s
 * key with its certificate chain (full attestation), or by the credential's own key (`self`).
 */
export function withPackedAttestation<T extends Registration>(
  registration: T,
  attestation: { key: KeyObject; x5c: x509.X509Certificate[] } | { self: KeyObject },
): T {
  const decoded = decodeCBOR(new Uint8Array(Buffer.from(registration.response.attestationObject, 'base64url'))) as Map<string, CBORType>;
  const authData = decoded.get('authData') as Uint8Array;
  const clientDataHash = createHash('sha256').update(Buffer.from(registration.response.clientDataJSON, 'base64url')).digest();
  const key = 'self' in attestation ? attestation.self : attestation.key;
  const sig = sign('sha256', Buffer.concat([authData, clientDataHash]), key);
  const attStmt = new Map<string, CBORType>([
    ['alg', -7],
    ['sig', new Uint8Array(sig)],
  ]);
  if (!('self' in attestation))
    attStmt.set(
      'x5c',
      attestation.x5c.map((c) => new Uint8Array(c.rawData)),
    );
  const attestationObject = encodeCBOR(
    new Map<string, CBORType>([
      ['fmt', 'packed'],
      ['attStmt', attStmt],
      ['authData', authData],
    ]),
  );
  return {
    ...registration,
    response: { ...registration.response, attestationObject: Buffer.from(attestationObject).toString('base64url') },
  };
}
