import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { configProblems } from '../support/config-problems.js';

/** The DUO_* settings: required with MFA_PROVIDER=duo, validated, secrets never echoed. */

const IKEY = 'DIWJ8X6AEYOR5OMC6TQ1';
const SKEY = 'Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4Ep';
const AUTH_IKEY = 'DI0123456789ABCDEFGH';
const AUTH_SKEY = 'a'.repeat(20) + 'B'.repeat(20);
const DUO = {
  MFA_PROVIDER: 'duo',
  DUO_ADMIN_INTEGRATION_KEY: IKEY,
  DUO_ADMIN_SECRET_KEY: SKEY,
  DUO_API_HOST: 'API-abcd1234.duosecurity.com',
  DUO_AUTH_INTEGRATION_KEY: AUTH_IKEY,
  DUO_AUTH_SECRET_KEY: AUTH_SKEY,
};

describe('Duo configuration', () => {
  it('is null with the builtin provider, and the DUO_* settings are then optional', () => {
    expect(loadConfig({}).duo).toBeNull();
  });

  it('reads both applications; the Auth API shares the host and base URL unless told otherwise; https by default', () => {
    const c = loadConfig(DUO);
    expect(c.mfaProvider).toBe('duo');
    expect(c.duo).toEqual({
      admin: {
        integrationKey: IKEY,
        secretKey: SKEY,
        apiHost: 'api-abcd1234.duosecurity.com',
        baseUrl: 'https://api-abcd1234.duosecurity.com',
      },
      auth: {
        integrationKey: AUTH_IKEY,
        secretKey: AUTH_SKEY,
        apiHost: 'api-abcd1234.duosecurity.com',
        baseUrl: 'https://api-abcd1234.duosecurity.com',
      },
      caFile: null,
      signatureVersion: 2,
      timeoutMs: 10000,
      retry: { maxAttempts: 4, maxTotalWaitMs: 8000 },
      // The paced refresh of the portal's directory from Duo's user list: every 6 h, 2 calls a second.
      directorySync: { everyMinutes: 360, callsPerSecond: 2 },
    });
    const other = loadConfig({
      ...DUO,
      DUO_AUTH_API_HOST: 'api-ffff0000.duosecurity.com',
      DUO_API_BASE_URL: 'http://127.0.0.1:9999',
      DUO_SIGNATURE_VERSION: '5',
    });
    expect(other.duo!.admin.baseUrl).toBe('http://127.0.0.1:9999');
    expect(other.duo!.auth).toMatchObject({ apiHost: 'api-ffff0000.duosecurity.com', baseUrl: 'https://api-ffff0000.duosecurity.com' });
    expect(other.duo!.signatureVersion).toBe(5);
  });

  it('names every missing setting when MFA_PROVIDER=duo', () => {
    expect(configProblems({ MFA_PROVIDER: 'duo' })).toEqual([
      'DUO_ADMIN_INTEGRATION_KEY: is required when MFA_PROVIDER=duo',
      'DUO_ADMIN_SECRET_KEY: is required when MFA_PROVIDER=duo',
      'DUO_API_HOST: is required when MFA_PROVIDER=duo',
      'DUO_AUTH_INTEGRATION_KEY: is required when MFA_PROVIDER=duo',
      'DUO_AUTH_SECRET_KEY: is required when MFA_PROVIDER=duo',
    ]);
  });

  it('says what a bad value should be, without echoing a secret key', () => {
    const list = configProblems({
      ...DUO,
      DUO_ADMIN_SECRET_KEY: 'short-secret-value',
      DUO_ADMIN_INTEGRATION_KEY: 'nope',
      DUO_API_HOST: 'https://api-x.duosecurity.com',
      DUO_TIMEOUT_MS: '5',
    });
    expect(list.find((p) => p.startsWith('DUO_ADMIN_SECRET_KEY:'))).toBe(
      'DUO_ADMIN_SECRET_KEY: must be the 40-character secret key shown by the Duo Admin Panel (got "***")',
    );
    expect(list.find((p) => p.startsWith('DUO_ADMIN_INTEGRATION_KEY:'))).toMatch(/20-character integration key.*"nope"/);
    expect(list.find((p) => p.startsWith('DUO_API_HOST:'))).toMatch(/without https:\/\//);
    expect(list.find((p) => p.startsWith('DUO_TIMEOUT_MS:'))).toMatch(/between 1000 and 60000/);
    expect(list.join('\n')).not.toContain('short-secret-value');
  });

  it('refuses an http base URL in production, and a CA file that does not exist', () => {
    const prod = { NODE_ENV: 'production', IDP_MODE: 'embedded', ALLOW_EMBEDDED_IDP_IN_PRODUCTION: 'true' };
    expect(configProblems({ ...DUO, ...prod, DUO_API_BASE_URL: 'http://duo-proxy.internal' })).toEqual([
      'DUO_API_BASE_URL: must use https when NODE_ENV=production (got "http://duo-proxy.internal")',
    ]);
    expect(configProblems({ ...DUO, DUO_CA_FILE: '/nonexistent/duo-ca.pem' })).toEqual([
      'DUO_CA_FILE: names no readable file (got "/nonexistent/duo-ca.pem")',
    ]);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'duo-ca-')), 'ca.pem');
    fs.writeFileSync(file, '-----BEGIN CERTIFICATE-----\n');
    expect(loadConfig({ ...DUO, DUO_CA_FILE: file }).duo!.caFile).toBe(file);
  });
});
