import fs from 'node:fs';
import path from 'node:path';
import { constants, verify, X509Certificate } from 'node:crypto';
import { SettingsService, type MetadataBLOBPayloadEntry, type MetadataStatement } from '@simplewebauthn/server';
import { decodeAttestationObject, isoBase64URL } from '@simplewebauthn/server/helpers';
import type { WebauthnMetadataConfig } from '../../config.js';

/**
 * FIDO metadata the administrator supplies (a local MDS3 BLOB and/or metadata statements), read once at
 * start-up and kept in memory. With it, an authenticator's model (AAGUID) is no longer just its claim:
 * the attestation's certificate chain must reach a root that the model's metadata statement names.
 *
 * The BLOB is checked here rather than by SimpleWebAuthn's MetadataService: that service downloads
 * BLOBs itself, is one object for the whole process (its strict mode would then judge every
 * registration, even where the policy asks for nothing), and keeps no status reports for statements
 * handed to it. Checking chains with node:crypto also keeps start-up and registration offline: no
 * revocation lists are fetched, the BLOB's status reports stand for them.
 */

/** A registration the attestation of which does not prove its model. */
export class AttestationUntrusted extends Error {
  override readonly name = 'AttestationUntrusted';
}

export interface AttestationTrust {
  /** What registration asks authenticators for. */
  conveyance: 'direct' | 'enterprise';
  /** How many models the metadata describes. */
  models: number;
  statementFor(aaguid: string): MetadataStatement | undefined;
  /** Throws AttestationUntrusted unless the attestation chains to a root of its model's metadata. */
  verify(registration: { fmt: string; aaguid: string; attestationObject: Uint8Array }, now?: Date): void;
}

/** Status reports after which a model's attestation is no longer believed. */
const DISTRUSTED: ReadonlySet<string> = new Set([
  'USER_VERIFICATION_BYPASS',
  'ATTESTATION_KEY_COMPROMISE',
  'USER_KEY_REMOTE_COMPROMISE',
  'USER_KEY_PHYSICAL_COMPROMISE',
  'REVOKED',
]);

/** Attestation types whose statement carries a certificate chain (not self attestation). */
const CERTIFIED_TYPES: ReadonlySet<string> = new Set(['basic_full', 'attca', 'anonca']);

const MAX_CHAIN = 6;

export function parsePemCertificates(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b));
}

const derCertificate = (b64: string) => new X509Certificate(Buffer.from(b64, 'base64'));

function withinValidity(cert: X509Certificate, now: Date): boolean {
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  return Number.isFinite(from) && Number.isFinite(to) && from <= now.getTime() && now.getTime() <= to;
}

const issuedBy = (child: X509Certificate, parent: X509Certificate) => child.checkIssued(parent) && child.verify(parent.publicKey);

/**
 * Why `chain` (leaf first) does not reach one of `roots`, or null when it does. The last certificate
 * of the chain may be a root itself, or be issued (name and signature) by one; every certificate in
 * between must be a CA. A root is trusted because it is configured, so it need not be a CA: metadata
 * may name an authenticator's own batch certificate.
 */
export function chainProblem(chain: readonly X509Certificate[], roots: readonly X509Certificate[], now: Date): string | null {
  if (chain.length === 0) return 'no certificate chain';
  if (chain.length > MAX_CHAIN) return 'certificate chain too long';
  if (roots.length === 0) return 'no root certificate to chain to';
  for (const cert of chain)
    if (!withinValidity(cert, now)) return `certificate "${cert.subject.replace(/\n/g, ', ')}" is outside its validity`;
  for (let i = 0; i + 1 < chain.length; i++) {
    if (!chain[i + 1]!.ca) return 'an intermediate certificate is not a CA';
    if (!issuedBy(chain[i]!, chain[i + 1]!)) return 'the certificate chain is broken';
  }
  const last = chain.at(-1)!;
  const anchored = roots.some((root) => withinValidity(root, now) && (root.raw.equals(last.raw) || issuedBy(last, root)));
  return anchored ? null : 'the certificate chain does not reach a trusted root';
}

const JWS_HASH: Readonly<Record<string, string>> = { '256': 'sha256', '384': 'sha384', '512': 'sha512' };

function verifyJws(signingInput: string, signature: Buffer, alg: string, cert: X509Certificate): boolean {
  const hash = JWS_HASH[alg.slice(2)];
  if (!hash) return false;
  const data = Buffer.from(signingInput, 'ascii');
  if (alg.startsWith('RS')) return verify(hash, data, cert.publicKey, signature);
  if (alg.startsWith('PS'))
    return verify(
      hash,
      data,
      { key: cert.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(alg.slice(2)) / 8 },
      signature,
    );
  if (alg.startsWith('ES')) return verify(hash, data, { key: cert.publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  return false;
}

export interface VerifiedBlob {
  no: number;
  nextUpdate: string;
  entries: MetadataBLOBPayloadEntry[];
}

/** A FIDO MDS3 BLOB (a JWT with its signing chain in `x5c`), checked against `roots`; throws why it is not trusted. */
export function verifyMdsBlob(jwt: string, roots: readonly X509Certificate[], now = new Date()): VerifiedBlob {
  const parts = jwt.trim().split('.');
  if (parts.length !== 3) throw new Error('the BLOB is not a JWT');
  const [headerB64, payloadB64, signatureB64] = parts as [string, string, string];
  const header = JSON.parse(isoBase64URL.toUTF8String(headerB64)) as { alg?: string; x5c?: string[] };
  if (!header.alg || !Array.isArray(header.x5c) || header.x5c.length === 0) throw new Error('the BLOB header has no alg or x5c');
  const chain = header.x5c.map(derCertificate);
  const problem = chainProblem(chain, roots, now);
  if (problem) throw new Error(`the BLOB signing certificate is not trusted: ${problem}`);
  if (!verifyJws(`${headerB64}.${payloadB64}`, Buffer.from(signatureB64, 'base64url'), header.alg, chain[0]!))
    throw new Error('the BLOB signature does not verify');
  const payload = JSON.parse(isoBase64URL.toUTF8String(payloadB64)) as Partial<VerifiedBlob>;
  if (!Array.isArray(payload.entries)) throw new Error('the BLOB has no entries');
  return { no: Number(payload.no ?? 0), nextUpdate: String(payload.nextUpdate ?? ''), entries: payload.entries };
}

function isStatement(value: unknown): value is MetadataStatement {
  const s = value as Partial<MetadataStatement> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.aaguid === 'string' &&
    Array.isArray(s.attestationRootCertificates) &&
    Array.isArray(s.attestationTypes)
  );
}

/** Metadata statements from a .json file (one statement or an array) or every .json file of a folder. */
export function readStatements(where: string): MetadataStatement[] {
  const files = fs.statSync(where).isDirectory()
    ? fs
        .readdirSync(where)
        .filter((f) => f.toLowerCase().endsWith('.json'))
        .sort()
        .map((f) => path.join(where, f))
    : [where];
  return files.flatMap((file) => {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    const list = Array.isArray(parsed) ? parsed : [parsed];
    for (const s of list) if (!isStatement(s)) throw new Error(`${file}: not a FIDO metadata statement with an aaguid`);
    return list as MetadataStatement[];
  });
}

/** The metadata the configuration names, or null when it names none (the allow-list is then advisory). */
export function loadAttestationTrust(config: WebauthnMetadataConfig, now = new Date()): AttestationTrust | null {
  if (!config.blobFile && !config.statementsPath) return null;
  const statements = new Map<string, MetadataStatement>();
  if (config.blobFile) {
    const roots = config.blobRootCertFile
      ? parsePemCertificates(fs.readFileSync(config.blobRootCertFile, 'utf8'))
      : SettingsService.getRootCertificates({ identifier: 'mds' }).flatMap(parsePemCertificates);
    if (roots.length === 0) throw new Error(`WEBAUTHN_MDS_ROOT_CERT_FILE: ${config.blobRootCertFile} holds no PEM certificate`);
    let blob: VerifiedBlob;
    try {
      blob = verifyMdsBlob(fs.readFileSync(config.blobFile, 'utf8'), roots, now);
    } catch (err) {
      throw new Error(`WEBAUTHN_MDS_BLOB_FILE: ${(err as Error).message}`, { cause: err });
    }
    for (const entry of blob.entries) {
      if (!entry.aaguid || !entry.metadataStatement) continue;
      if ((entry.statusReports ?? []).some((r) => DISTRUSTED.has(r.status))) continue;
      statements.set(entry.aaguid.toLowerCase(), entry.metadataStatement);
    }
  }
  if (config.statementsPath) {
    // The administrator's own statements win over the BLOB's for the same model.
    try {
      for (const s of readStatements(config.statementsPath)) statements.set(s.aaguid!.toLowerCase(), s);
    } catch (err) {
      throw new Error(`WEBAUTHN_METADATA_STATEMENTS: ${(err as Error).message}`, { cause: err });
    }
  }

  return {
    conveyance: config.conveyance,
    models: statements.size,
    statementFor: (aaguid) => statements.get(aaguid.toLowerCase()),
    verify({ fmt, aaguid, attestationObject }, at = new Date()) {
      if (fmt === 'none') throw new AttestationUntrusted('The authenticator gave no attestation, so its model cannot be verified.');
      const x5c = decodeAttestationObject(new Uint8Array(attestationObject)).get('attStmt').get('x5c');
      if (!x5c?.length) throw new AttestationUntrusted('The attestation is self-signed, so it proves nothing about the model.');
      const statement = statements.get(aaguid.toLowerCase());
      if (!statement) throw new AttestationUntrusted(`No FIDO metadata describes model ${aaguid}.`);
      if (!statement.attestationTypes.some((t) => CERTIFIED_TYPES.has(t)))
        throw new AttestationUntrusted(`The metadata of model ${aaguid} names no certificate attestation.`);
      let problem: string | null;
      try {
        problem = chainProblem(
          x5c.map((der) => new X509Certificate(Buffer.from(der))),
          statement.attestationRootCertificates.map(derCertificate),
          at,
        );
      } catch {
        problem = 'a certificate could not be read';
      }
      if (problem) throw new AttestationUntrusted(`The attestation of model ${aaguid} is not trusted: ${problem}.`);
    },
  };
}
