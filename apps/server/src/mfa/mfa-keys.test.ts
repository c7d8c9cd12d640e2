import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { configProblems } from '../../test/support/config-problems.js';
import { derivePepper, keyIdOf, loadMfaKeys, MFA_KEY_FILE, readOrCreateKeyFile } from './mfa-keys.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-keys-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const ENTRA = {
  IDP_MODE: 'entra',
  ENTRA_TENANT_ID: '11111111-2222-3333-4444-555555555555',
  ENTRA_CLIENT_ID: '66666666-7777-8888-9999-000000000000',
  ENTRA_API_AUDIENCE: 'api://mfa-portal-api',
  ENTRA_API_SCOPE: 'api://mfa-portal-api/access_as_user',
};

describe('MFA keys', () => {
  it('generates the key file once, readable by its owner only, and reads it back', () => {
    const dir = path.join(tempDir(), 'nested');
    const key = readOrCreateKeyFile(dir);
    expect(key).toHaveLength(32);
    const file = path.join(dir, MFA_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readOrCreateKeyFile(dir).equals(key)).toBe(true);
    expect(readOrCreateKeyFile(tempDir()).equals(key)).toBe(false);
  });

  it('refuses a damaged key file with a clear message, never guessing a new key', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, MFA_KEY_FILE), 'not a key');
    expect(() => readOrCreateKeyFile(dir)).toThrow(/mfa-secrets\.key does not hold a usable key.*MFA_SECRETS_KEY/);
  });

  it('derives a 32-byte pepper per key, and a stable key id', () => {
    const a = Buffer.alloc(32, 1);
    const b = Buffer.alloc(32, 2);
    expect(derivePepper(a)).toHaveLength(32);
    expect(derivePepper(a).equals(derivePepper(a))).toBe(true);
    expect(derivePepper(a).equals(derivePepper(b))).toBe(false);
    expect(derivePepper(a).equals(a)).toBe(false);
    expect(keyIdOf(a)).toMatch(/^k[0-9a-f]{12}$/);
    expect(keyIdOf(a)).not.toBe(keyIdOf(b));
  });

  it('uses MFA_SECRETS_KEY when set (no file), and MFA_BYPASS_PEPPER over the derived one', () => {
    const dir = tempDir();
    const pepper = Buffer.alloc(32, 9).toString('base64');
    const keys = loadMfaKeys(loadConfig({ DATA_DIR: dir, MFA_SECRETS_KEY: KEY, MFA_BYPASS_PEPPER: pepper }));
    expect(keys.source).toBe('environment');
    expect(fs.existsSync(path.join(dir, MFA_KEY_FILE))).toBe(false);
    expect(keys.bypassPepper.equals(Buffer.from(pepper, 'base64'))).toBe(true);
    const sealed = keys.box.seal('secret', 'row:1');
    // The same key from the environment opens it in another process.
    expect(
      loadMfaKeys(loadConfig({ DATA_DIR: tempDir(), MFA_SECRETS_KEY: KEY }))
        .box.open(sealed, 'row:1')
        .toString(),
    ).toBe('secret');
    const file = loadMfaKeys(loadConfig({ DATA_DIR: dir }));
    expect(file.source).toBe('file');
    expect(file.bypassPepper.equals(derivePepper(readOrCreateKeyFile(dir)))).toBe(true);
  });
});

describe('MFA configuration', () => {
  it('requires MFA_SECRETS_KEY in production with Entra ID and the builtin store', () => {
    expect(configProblems({ NODE_ENV: 'production', ...ENTRA })).toEqual([
      expect.stringMatching(/^MFA_SECRETS_KEY: is required when NODE_ENV=production with IDP_MODE=entra and MFA_PROVIDER=builtin/),
    ]);
    expect(loadConfig({ NODE_ENV: 'production', ...ENTRA, MFA_SECRETS_KEY: KEY }).mfa.secretsKey).toHaveLength(32);
    expect(loadConfig({}).mfa.secretsKey).toBeNull();
  });

  it('names a bad key or pepper without echoing it', () => {
    const [keyProblem] = configProblems({ MFA_SECRETS_KEY: Buffer.alloc(16, 1).toString('base64') });
    expect(keyProblem).toMatch(/^MFA_SECRETS_KEY: The encryption key must be 32 bytes, got 16.*\(got "\*\*\*"\)$/);
    const [pepperProblem] = configProblems({ MFA_BYPASS_PEPPER: 'short' });
    expect(pepperProblem).toBe('MFA_BYPASS_PEPPER: must be at least 32 bytes in base64 (openssl rand -base64 32) (got "***")');
  });

  it('reads the step-up age, lockout and verification limits, with bounds', () => {
    expect(loadConfig({}).mfa).toMatchObject({
      totpIssuer: 'MFA Portal',
      stepUpMaxAgeSeconds: 300,
      lockout: { maxFailures: 5, lockMinutes: 15 },
      verifyRateLimit: { perUser: 10, perAddress: 30, windowSeconds: 60 },
    });
    expect(loadConfig({ STEP_UP_MAX_AGE_SECONDS: '600', MFA_TOTP_ISSUER: 'Contoso' }).mfa).toMatchObject({
      stepUpMaxAgeSeconds: 600,
      totpIssuer: 'Contoso',
    });
    expect(configProblems({ STEP_UP_MAX_AGE_SECONDS: '0' })[0]).toMatch(/^STEP_UP_MAX_AGE_SECONDS: must be between 30 and 3600/);
    expect(configProblems({ MFA_LOCKOUT_MAX_FAILURES: 'many' })[0]).toMatch(/^MFA_LOCKOUT_MAX_FAILURES: must be a number/);
  });
});
