import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webauthnOptionsResponseSchema } from '@mfa-portal/shared';
import { generate } from 'selfsigned';
import { addUser, auditEvents, errorOf, meTestApp, type MeTestApp } from '../../../test/me-api.js';
import { CHROMIUM_VIRTUAL_AAGUID, createChromiumLikeBatch, metadataStatement } from '../../../test/webauthn/attestation-pki.js';
import { policyAsAdmin } from '../../../test/webauthn/policy-admin.js';
import { AttestationUntrusted, loadAttestationTrust } from './attestation-trust.js';

/**
 * The verified allow-list against what Chromium really sends: its virtual authenticator (the DevTools
 * protocol's WebAuthn domain, CTAP2 over USB) answers a `direct` attestation request with `packed`
 * attestation and one self-issued batch certificate. The metadata statement names the batch
 * certificate captured once from Chromium (chromium-virtual-batch.pem; Chromium's attestation key is
 * fixed, the certificate is re-made with a later expiry each time). The page is a blank one at the
 * portal's origin; the ceremony's options and answer go through the API as the SPA would send them.
 * Skipped where no Chromium is installed (CHROMIUM_PATH, or `chromium` on the PATH).
 */

function chromiumPath(): string | null {
  if (process.env.CHROMIUM_PATH && fs.existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}
const CHROMIUM = chromiumPath();
const BATCH_PEM = path.join(import.meta.dirname, '../../../test/webauthn/chromium-virtual-batch.pem');

describe.skipIf(!CHROMIUM)("Chromium's virtual authenticator with the verified allow-list", () => {
  let m: MeTestApp;
  let server: https.Server;
  let origin: string;
  let dir: string;
  let browser: import('playwright-core').Browser;
  let page: import('playwright-core').Page;

  beforeAll(async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048, algorithm: 'sha256' });
    server = https.createServer({ key: pems.private, cert: pems.cert }, (_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>blank</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://localhost:${(server.address() as AddressInfo).port}`;

    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-chromium-mds-'));
    const der = new (await import('node:crypto')).X509Certificate(fs.readFileSync(BATCH_PEM)).raw.toString('base64');
    fs.writeFileSync(
      path.join(dir, 'chromium.json'),
      JSON.stringify({
        aaguid: CHROMIUM_VIRTUAL_AAGUID,
        description: 'Chromium virtual authenticator',
        authenticatorVersion: 1,
        protocolFamily: 'fido2',
        schema: 3,
        authenticationAlgorithms: ['secp256r1_ecdsa_sha256_raw'],
        attestationTypes: ['basic_full'],
        attestationRootCertificates: [der],
      }),
    );
    m = await meTestApp({
      PUBLIC_URL: `${origin}/`,
      WEBAUTHN_METADATA_STATEMENTS: dir,
      MFA_VERIFY_LIMIT_PER_USER: '1000',
      MFA_VERIFY_LIMIT_PER_ADDRESS: '1000',
    });
    const set = await policyAsAdmin(m, 'PUT', { aaguidAllowList: [CHROMIUM_VIRTUAL_AAGUID], requirePhishingResistantForProtected: false });
    expect(set.json()).toMatchObject({ attestation: 'verified' });

    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox', '--disable-gpu'] });
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    page = await context.newPage();
    await page.goto(`${origin}/`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'usb',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await m?.close();
    server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** navigator.credentials.create() in the page, with the portal's options, answered as JSON. */
  const create = (options: unknown) =>
    page.evaluate(async (json) => {
      // Runs in the page: the browser's API, typed here by hand (the server is compiled without the DOM).
      const w = globalThis as unknown as {
        PublicKeyCredential: { parseCreationOptionsFromJSON(options: unknown): unknown };
        navigator: { credentials: { create(options: { publicKey: unknown }): Promise<{ toJSON(): unknown }> } };
      };
      const publicKey = w.PublicKeyCredential.parseCreationOptionsFromJSON(json);
      const credential = await w.navigator.credentials.create({ publicKey });
      return credential.toJSON();
    }, options);

  it('asks for direct attestation and registers the virtual security key once its packed attestation verifies', async () => {
    const upn = 'chromium@example.com';
    await addUser(m.db, upn);
    const start = await m.call(upn, 'POST', '/webauthn/registration');
    expect(start.statusCode, start.body).toBe(201);
    const { challengeId, options } = webauthnOptionsResponseSchema.parse(start.json());
    expect(options).toMatchObject({ attestation: 'direct', rp: { id: 'localhost' } });
    const response = await create(options);
    const res = await m.call(upn, 'POST', '/webauthn/registration/verify', { challengeId, name: 'Virtual key', response });
    expect(res.statusCode, res.body).toBe(201);
    expect((await auditEvents(m.db, 'device.webauthn_register')).at(-1)).toMatchObject({
      target_upn: upn,
      outcome: 'success',
      details: expect.objectContaining({ aaguid: CHROMIUM_VIRTUAL_AAGUID, attestationFormat: 'packed', attestation: 'verified' }),
    });
  });

  it('refuses it when the list names another model (its attestation is fine, its model is not allowed)', async () => {
    await policyAsAdmin(m, 'PUT', {
      aaguidAllowList: ['cb69481e-8ff7-4039-93ec-0a2729a154a8'],
      requirePhishingResistantForProtected: false,
    });
    const upn = 'chromium2@example.com';
    await addUser(m.db, upn);
    const { challengeId, options } = webauthnOptionsResponseSchema.parse((await m.call(upn, 'POST', '/webauthn/registration')).json());
    const res = await m.call(upn, 'POST', '/webauthn/registration/verify', {
      challengeId,
      name: 'Virtual key',
      response: await create(options),
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(errorOf(res).code).toBe('webauthn.authenticator_not_allowed');
  });

  it('its attestation does not verify against a look-alike root (same names, another key)', async () => {
    const lookAlike = await createChromiumLikeBatch();
    const other = path.join(dir, 'look-alike.json');
    fs.writeFileSync(other, JSON.stringify(metadataStatement(CHROMIUM_VIRTUAL_AAGUID, [lookAlike.cert])));
    const trust = loadAttestationTrust({ blobFile: null, blobRootCertFile: null, statementsPath: other, conveyance: 'direct' })!;
    const response = (await create({
      challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      rp: { id: 'localhost', name: 'Test' },
      user: { id: 'AAAA', name: 'x', displayName: 'x' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      attestation: 'direct',
    })) as { response: { attestationObject: string } };
    const attestationObject = new Uint8Array(Buffer.from(response.response.attestationObject, 'base64url'));
    expect(() => trust.verify({ fmt: 'packed', aaguid: CHROMIUM_VIRTUAL_AAGUID, attestationObject })).toThrow(AttestationUntrusted);
    expect(() => trust.verify({ fmt: 'packed', aaguid: CHROMIUM_VIRTUAL_AAGUID, attestationObject })).toThrow(
      /does not reach a trusted root/,
    );
  });
});
