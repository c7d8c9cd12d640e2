import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webauthnOptionsResponseSchema, webauthnPolicyResponseSchema } from '@mfa-portal/shared';
import { createSoftAuthenticator } from '../../../test/webauthn/soft-authenticator.js';
import {
  blobEntry,
  CHROMIUM_VIRTUAL_AAGUID,
  createBatchCertificate,
  createChromiumLikeBatch,
  createIntermediateCa,
  createRootCa,
  metadataStatement,
  pemOf,
  signBlob,
  withPackedAttestation,
  type Issuer,
} from '../../../test/webauthn/attestation-pki.js';
import { addUser, auditEvents, errorOf, meTestApp, mfaSnapshot, type MeTestApp } from '../../../test/me-api.js';
import { policyAsAdmin } from '../../../test/webauthn/policy-admin.js';
import { ConfigError, loadConfig } from '../../config.js';
import { loadAttestationTrust } from './attestation-trust.js';

/**
 * The AAGUID allow-list proven by attestation: with FIDO metadata configured (a local MDS3 BLOB signed
 * under a configured root, and a folder of metadata statements), a listed model registers only with an
 * attestation whose chain reaches its metadata's roots; without metadata the list stays advisory.
 */

const ORIGIN = 'https://localhost:8443';
const RP_ID = 'localhost';
const YUBIKEY_5 = 'cb69481e-8ff7-4039-93ec-0a2729a154a8';
const COMPROMISED = '11111111-2222-4333-8444-555555555555';
const NOT_LISTED = 'ee882879-721c-4913-9775-3dfcce97072a';

interface Pki {
  dir: string;
  blobRoot: Issuer;
  modelCa: Issuer;
  batch: Issuer;
  otherBatch: Issuer;
  compromisedBatch: Issuer;
  chromium: Issuer;
  rogueBatch: Issuer;
  env: Record<string, string>;
}

async function createPki(): Promise<Pki> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-mds-'));
  const blobRoot = await createRootCa('Test MDS Root');
  const blobSigner = await createIntermediateCa(blobRoot, 'Test MDS BLOB Signer');
  const modelCa = await createRootCa('Test Attestation Root');
  const batch = await createBatchCertificate(modelCa, YUBIKEY_5);
  const otherBatch = await createBatchCertificate(modelCa, NOT_LISTED);
  const compromisedBatch = await createBatchCertificate(modelCa, COMPROMISED);
  // The same name and AAGUID, from a CA that no metadata names.
  const rogueCa = await createRootCa('Test Attestation Root');
  const rogueBatch = await createBatchCertificate(rogueCa, YUBIKEY_5);
  const chromium = await createChromiumLikeBatch();
  const blob = await signBlob(
    [
      blobEntry(metadataStatement(YUBIKEY_5, [modelCa.cert])),
      blobEntry(metadataStatement(NOT_LISTED, [modelCa.cert])),
      blobEntry(metadataStatement(COMPROMISED, [modelCa.cert]), ['FIDO_CERTIFIED', 'ATTESTATION_KEY_COMPROMISE']),
    ],
    blobSigner,
  );
  fs.writeFileSync(path.join(dir, 'blob.jwt'), blob);
  fs.writeFileSync(path.join(dir, 'root.pem'), pemOf(blobRoot.cert));
  fs.mkdirSync(path.join(dir, 'statements'));
  fs.writeFileSync(
    path.join(dir, 'statements', 'chromium.json'),
    JSON.stringify(metadataStatement(CHROMIUM_VIRTUAL_AAGUID, [chromium.cert], 'Chromium virtual authenticator')),
  );
  return {
    dir,
    blobRoot,
    modelCa,
    batch,
    otherBatch,
    compromisedBatch,
    chromium,
    rogueBatch,
    env: {
      WEBAUTHN_MDS_BLOB_FILE: path.join(dir, 'blob.jwt'),
      WEBAUTHN_MDS_ROOT_CERT_FILE: path.join(dir, 'root.pem'),
      WEBAUTHN_METADATA_STATEMENTS: path.join(dir, 'statements'),
    },
  };
}

const LIMITS = { MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '1000' };

function harness(m: () => MeTestApp) {
  let users = 0;
  const admin = (method: 'GET' | 'PUT', payload?: unknown) => policyAsAdmin(m(), method, payload);
  const setList = (aaguidAllowList: string[]) => admin('PUT', { aaguidAllowList, requirePhishingResistantForProtected: false });
  const snapshot = async () =>
    JSON.stringify([
      await mfaSnapshot(m().db),
      await m().db.selectFrom('mfa_webauthn_credential').selectAll().orderBy('device_id').execute(),
    ]);
  /** A new user registers a first device: the creation options they were sent, and the answer to `answer`. */
  const register = async (aaguid: string, answer: (r: ReturnType<ReturnType<typeof createSoftAuthenticator>['register']>) => unknown) => {
    const upn = `attest${++users}@example.com`;
    await addUser(m().db, upn);
    const auth = createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID, aaguid, transports: ['usb'], attachment: 'cross-platform' });
    const start = await m().call(upn, 'POST', '/webauthn/registration');
    expect(start.statusCode, start.body).toBe(201);
    const { challengeId, options } = webauthnOptionsResponseSchema.parse(start.json()) as unknown as {
      challengeId: string;
      options: { challenge: string; attestation?: string };
    };
    const before = await snapshot();
    const res = await m().call(upn, 'POST', '/webauthn/registration/verify', {
      challengeId,
      name: 'Key',
      response: answer(auth.register(options)),
    });
    return { upn, options, res, before, auth };
  };
  return { admin, setList, snapshot, register };
}

describe('passkey attestation with FIDO metadata (verified allow-list)', () => {
  let pki: Pki;
  let m: MeTestApp;
  const h = harness(() => m);

  beforeAll(async () => {
    pki = await createPki();
    m = await meTestApp({ ...LIMITS, ...pki.env });
  });
  afterAll(async () => {
    await m?.close();
    fs.rmSync(pki.dir, { recursive: true, force: true });
  });

  it('the policy says the list is verified; attestation is asked for only while the list names models', async () => {
    const policy = webauthnPolicyResponseSchema.parse((await h.admin('GET')).json());
    expect(policy.attestation).toBe('verified');
    const open = await h.register(YUBIKEY_5, (r) => r);
    expect(open.options.attestation).toBe('none');
    expect(open.res.statusCode, open.res.body).toBe(201);

    const set = await h.setList([YUBIKEY_5, CHROMIUM_VIRTUAL_AAGUID, COMPROMISED]);
    // The compromised model's entry was dropped: listed, but nobody can register one.
    expect(set.json()).toMatchObject({ attestation: 'verified', aaguidsWithoutMetadata: [COMPROMISED] });
  });

  it('accepts a listed model whose packed attestation chains to its metadata root (BLOB entry)', async () => {
    const { res, upn, options } = await h.register(YUBIKEY_5, (r) =>
      withPackedAttestation(r, { key: pki.batch.privateKey, x5c: [pki.batch.cert] }),
    );
    expect(options.attestation).toBe('direct');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'security_key', authenticatorModel: 'YubiKey 5 Series' });
    expect((await auditEvents(m.db, 'device.webauthn_register')).at(-1)).toMatchObject({
      target_upn: upn,
      outcome: 'success',
      details: expect.objectContaining({ aaguid: YUBIKEY_5, attestationFormat: 'packed', attestation: 'verified' }),
    });
  });

  it("accepts Chromium's virtual authenticator (metadata statement file; its batch certificate made anew with the same key)", async () => {
    // Chromium re-issues its self-signed batch certificate each time (a later notAfter), with a fixed key.
    const again = await createChromiumLikeBatch(pki.chromium.keys, new Date(Date.now() + 7300 * 24 * 3600 * 1000));
    expect(Buffer.from(again.cert.rawData).equals(Buffer.from(pki.chromium.cert.rawData))).toBe(false);
    const { res } = await h.register(CHROMIUM_VIRTUAL_AAGUID, (r) =>
      withPackedAttestation(r, { key: again.privateKey, x5c: [again.cert] }),
    );
    expect(res.statusCode, res.body).toBe(201);
  });

  describe('refuses, stores nothing and audits the failure when the attestation does not prove the model', () => {
    const cases: [string, string, (r: Parameters<Parameters<typeof h.register>[1]>[0], p: Pki) => unknown, RegExp][] = [
      ['no attestation (the model is only claimed)', YUBIKEY_5, (r) => r, /no attestation/],
      [
        'a chain to a root its metadata does not name',
        YUBIKEY_5,
        (r, p) => withPackedAttestation(r, { key: p.rogueBatch.privateKey, x5c: [p.rogueBatch.cert] }),
        /does not reach a trusted root/,
      ],
      [
        'a model the BLOB reports compromised',
        COMPROMISED,
        (r, p) => withPackedAttestation(r, { key: p.compromisedBatch.privateKey, x5c: [p.compromisedBatch.cert] }),
        /No FIDO metadata/,
      ],
    ];
    it.each(cases)('%s: 403 webauthn.attestation_untrusted', async (_name, aaguid, answer, reason) => {
      const { res, before, upn } = await h.register(aaguid, (r) => answer(r, pki));
      expect(res.statusCode, res.body).toBe(403);
      expect(errorOf(res)).toMatchObject({ code: 'webauthn.attestation_untrusted', details: { field: 'response' } });
      expect(errorOf(res).details?.reason).toMatch(reason);
      expect(await h.snapshot()).toBe(before);
      expect((await auditEvents(m.db, 'device.webauthn_register')).at(-1)).toMatchObject({
        target_upn: upn,
        outcome: 'failure',
        reason: 'webauthn.attestation_untrusted',
      });
    });

    it('self attestation: 403 webauthn.attestation_untrusted', async () => {
      const upn = 'selfattest@example.com';
      await addUser(m.db, upn);
      const auth = createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID, aaguid: YUBIKEY_5, transports: ['usb'] });
      const start = webauthnOptionsResponseSchema.parse((await m.call(upn, 'POST', '/webauthn/registration')).json()) as unknown as {
        challengeId: string;
        options: { challenge: string };
      };
      const plain = auth.register(start.options);
      const before = await h.snapshot();
      const res = await m.call(upn, 'POST', '/webauthn/registration/verify', {
        challengeId: start.challengeId,
        name: 'Key',
        response: withPackedAttestation(plain, { self: auth.credentials.at(-1)!.privateKey }),
      });
      expect(res.statusCode, res.body).toBe(403);
      expect(errorOf(res).code).toBe('webauthn.attestation_untrusted');
      expect(errorOf(res).details?.reason).toMatch(/self-signed/);
      expect(await h.snapshot()).toBe(before);
    });
  });

  it('refuses a well-attested model that is not on the list: 403 webauthn.authenticator_not_allowed, nothing stored', async () => {
    const { res, before, upn } = await h.register(NOT_LISTED, (r) =>
      withPackedAttestation(r, { key: pki.otherBatch.privateKey, x5c: [pki.otherBatch.cert] }),
    );
    expect(res.statusCode, res.body).toBe(403);
    expect(errorOf(res).code).toBe('webauthn.authenticator_not_allowed');
    expect(await h.snapshot()).toBe(before);
    expect((await auditEvents(m.db, 'device.webauthn_register')).at(-1)).toMatchObject({
      target_upn: upn,
      outcome: 'failure',
      reason: 'webauthn.authenticator_not_allowed',
    });
  });

  it('with the list emptied again, any model registers without attestation', async () => {
    await h.setList([]);
    const { res, options } = await h.register(NOT_LISTED, (r) => r);
    expect(options.attestation).toBe('none');
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('passkey attestation without FIDO metadata (advisory allow-list, as before)', () => {
  let m: MeTestApp;
  const h = harness(() => m);
  beforeAll(async () => {
    m = await meTestApp(LIMITS);
  });
  afterAll(async () => {
    await m?.close();
  });

  it('the policy says advisory; a listed model is taken at its word and an unlisted one refused', async () => {
    expect((await h.setList([YUBIKEY_5])).json()).toMatchObject({
      aaguidAllowList: [YUBIKEY_5],
      attestation: 'advisory',
      aaguidsWithoutMetadata: [],
    });
    expect(webauthnPolicyResponseSchema.parse((await h.admin('GET')).json()).attestation).toBe('advisory');
    const listed = await h.register(YUBIKEY_5, (r) => r);
    expect(listed.options.attestation).toBe('none');
    expect(listed.res.statusCode, listed.res.body).toBe(201);
    const other = await h.register(NOT_LISTED, (r) => r);
    expect(errorOf(other.res).code).toBe('webauthn.authenticator_not_allowed');
    expect(await h.snapshot()).toBe(other.before);
  });
});

describe('loading FIDO metadata', () => {
  let pki: Pki;
  beforeAll(async () => {
    pki = await createPki();
  });
  afterAll(() => fs.rmSync(pki.dir, { recursive: true, force: true }));

  const config = (over: Partial<Parameters<typeof loadAttestationTrust>[0]> = {}) => ({
    blobFile: pki.env.WEBAUTHN_MDS_BLOB_FILE!,
    blobRootCertFile: pki.env.WEBAUTHN_MDS_ROOT_CERT_FILE!,
    statementsPath: null,
    conveyance: 'direct' as const,
    ...over,
  });

  it('none configured: null (advisory)', () => {
    expect(loadAttestationTrust({ blobFile: null, blobRootCertFile: null, statementsPath: null, conveyance: 'direct' })).toBeNull();
  });

  it('keeps the BLOB entries without a compromise report, and the statements', () => {
    const trust = loadAttestationTrust(config({ statementsPath: pki.env.WEBAUTHN_METADATA_STATEMENTS! }))!;
    expect(trust.models).toBe(3);
    expect(trust.statementFor(YUBIKEY_5.toUpperCase())).toBeDefined();
    expect(trust.statementFor(COMPROMISED)).toBeUndefined();
    expect(trust.statementFor(CHROMIUM_VIRTUAL_AAGUID)?.description).toBe('Chromium virtual authenticator');
  });

  it('refuses a BLOB under another root (e.g. the default FIDO roots), a tampered one, or an expired signer', async () => {
    expect(() => loadAttestationTrust(config({ blobRootCertFile: null }))).toThrow(/WEBAUTHN_MDS_BLOB_FILE: .*trusted root/);
    const [h, p, s] = fs.readFileSync(pki.env.WEBAUTHN_MDS_BLOB_FILE!, 'utf8').split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as { entries: unknown[] };
    payload.entries.push(blobEntry(metadataStatement('22222222-2222-4222-8222-222222222222', [pki.modelCa.cert])));
    const tampered = path.join(pki.dir, 'tampered.jwt');
    fs.writeFileSync(tampered, `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`);
    expect(() => loadAttestationTrust(config({ blobFile: tampered }))).toThrow(/signature does not verify/);

    const expiredSigner = await createIntermediateCa(pki.blobRoot, 'Old signer');
    const stale = path.join(pki.dir, 'stale.jwt');
    fs.writeFileSync(stale, await signBlob([], expiredSigner));
    expect(loadAttestationTrust(config({ blobFile: stale }))!.models).toBe(0);
    expect(() => loadAttestationTrust(config({ blobFile: stale }), new Date(Date.now() + 400 * 24 * 3600 * 1000))).toThrow(
      /outside its validity/,
    );
  });

  it('the settings: files must exist, the root goes with a BLOB, direct attestation by default', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: pki.dir };
    expect(loadConfig(base).webauthnMetadata).toEqual({
      blobFile: null,
      blobRootCertFile: null,
      statementsPath: null,
      conveyance: 'direct',
    });
    expect(() => loadConfig({ ...base, WEBAUTHN_MDS_BLOB_FILE: path.join(pki.dir, 'missing.jwt') })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, WEBAUTHN_MDS_ROOT_CERT_FILE: pki.env.WEBAUTHN_MDS_ROOT_CERT_FILE! })).toThrow(
      /WEBAUTHN_MDS_ROOT_CERT_FILE: is only used with WEBAUTHN_MDS_BLOB_FILE/,
    );
    expect(() => loadConfig({ ...base, WEBAUTHN_ATTESTATION_CONVEYANCE: 'indirect' })).toThrow(/must be direct or enterprise/);
    expect(loadConfig({ ...base, ...pki.env, WEBAUTHN_ATTESTATION_CONVEYANCE: 'enterprise' }).webauthnMetadata).toMatchObject({
      blobFile: pki.env.WEBAUTHN_MDS_BLOB_FILE,
      conveyance: 'enterprise',
    });
  });

  it('refuses a statement file that is not a metadata statement', () => {
    const bad = path.join(pki.dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ description: 'no aaguid' }));
    expect(() => loadAttestationTrust(config({ statementsPath: bad }))).toThrow(/WEBAUTHN_METADATA_STATEMENTS/);
  });
});
