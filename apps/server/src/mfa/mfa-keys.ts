import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config.js';
import { createSecretBox, parseKey, SECRET_BOX_KEY_BYTES, type SecretBox } from '../lib/secret-box.js';

/**
 * Keys of the builtin MFA store:
 * - the AES-256-GCM key that seals TOTP secrets and hardware-token seeds (MFA_SECRETS_KEY; in the
 *   embedded default, generated once into DATA_DIR/mfa-secrets.key, mode 0600);
 * - the pepper of the bypass-code hashes (MFA_BYPASS_PEPPER, or derived from the key with HKDF).
 *
 * Several instances on one PostgreSQL database must share MFA_SECRETS_KEY (configuration refuses to
 * start production with Entra ID without it). Changing the key makes every sealed secret unreadable,
 * and, when the pepper is derived, every bypass code unusable.
 */

export const MFA_KEY_FILE = 'mfa-secrets.key';
const PEPPER_INFO = 'mfa-portal bypass-code pepper v1';
const PEPPER_SALT = 'mfa-portal';

export interface MfaKeys {
  box: SecretBox;
  bypassPepper: Buffer;
  /** Where the key came from (for the start-up banner and logs; never the key). */
  source: 'environment' | 'file';
}

/** A short, stable id of a key for the sealed format (a hash prefix: it reveals nothing usable). */
export function keyIdOf(key: Buffer): string {
  return `k${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

/** The bypass-code pepper derived from the secrets key (HKDF-SHA-256, 32 bytes). */
export function derivePepper(key: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', key, PEPPER_SALT, PEPPER_INFO, 32));
}

/** Reads the key file, or creates it (0600) when absent; concurrent first starts keep the first one written. */
export function readOrCreateKeyFile(dataDir: string): Buffer {
  const file = path.join(dataDir, MFA_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, `${randomBytes(SECRET_BOX_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  try {
    return parseKey(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(
      `${file} does not hold a usable key (${err instanceof Error ? err.message : String(err)}); restore it, or set MFA_SECRETS_KEY`,
    );
  }
}

const cache = new WeakMap<AppConfig, MfaKeys>();

/** The MFA keys for a configuration (read once per configuration object). */
export function loadMfaKeys(config: AppConfig): MfaKeys {
  const cached = cache.get(config);
  if (cached) return cached;
  const key = config.mfa.secretsKey ?? readOrCreateKeyFile(config.dataDir);
  const keys: MfaKeys = {
    box: createSecretBox(key, keyIdOf(key)),
    bypassPepper: config.mfa.bypassPepper ?? derivePepper(key),
    source: config.mfa.secretsKey ? 'environment' : 'file',
  };
  cache.set(config, keys);
  return keys;
}
