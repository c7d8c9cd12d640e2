import fs from 'node:fs';
import path from 'node:path';
import { SUPPORTED_LANGUAGES } from '@mfa-portal/shared';

export const NAMESPACE_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Loads the repository's translation files once at start-up (locales/<lng>/<ns>.json). Only files that
 * parse as JSON objects are served; a broken file stops the server with its name.
 */
export function loadTranslations(dir: string): Map<string, Map<string, string>> {
  const byLanguage = new Map<string, Map<string, string>>();
  for (const lng of SUPPORTED_LANGUAGES) {
    const files = new Map<string, string>();
    const lngDir = path.join(dir, lng);
    for (const file of fs.existsSync(lngDir) ? fs.readdirSync(lngDir) : []) {
      const ns = file.replace(/\.json$/, '');
      if (!file.endsWith('.json') || !NAMESPACE_PATTERN.test(ns)) continue;
      const text = fs.readFileSync(path.join(lngDir, file), 'utf8');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new Error(`translation file locales/${lng}/${file} is not valid JSON: ${(err as Error).message}`);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error(`translation file locales/${lng}/${file} must hold a JSON object`);
      files.set(ns, JSON.stringify(parsed));
    }
    byLanguage.set(lng, files);
  }
  return byLanguage;
}

/** Bounds on what the SPA may report as missing keys. */
export const MISSING_KEYS_LIMITS = {
  maxKeysPerRequest: 50,
  maxKeyLength: 200,
  maxFallbackLength: 1000,
  maxStoredKeys: 2000,
  bodyLimitBytes: 16 * 1024,
  perMinutePerAddress: 30,
} as const;
