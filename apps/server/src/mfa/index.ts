import type { Kysely } from 'kysely';
import pino from 'pino';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import { createBuiltinProvider } from './builtin/builtin-provider.js';
import { createDuoProviderFromConfig } from './duo/duo-provider.js';
import { loadMfaKeys } from './mfa-keys.js';
import type { MfaProvider } from './port.js';

export type { MfaProvider } from './port.js';
export { MfaError } from './port.js';

/** Chooses the adapter named by MFA_PROVIDER. */
export function createMfaProvider(
  config: AppConfig,
  db: Kysely<Database>,
  opts: { onProviderRetry?: (retry: { kind: string; waitMs: number }) => void } = {},
): MfaProvider {
  switch (config.mfaProvider) {
    case 'builtin':
      return createBuiltinProvider(db, { keys: loadMfaKeys(config), lockout: config.mfa.lockout });
    case 'duo':
      if (!config.duo) throw new Error('MFA_PROVIDER=duo needs the DUO_* settings');
      // Duo's failures reach the user as 503/502 answers; the log says which call failed and why.
      return createDuoProviderFromConfig(config.duo, {
        logger: pino({ level: config.logLevel, name: 'duo' }),
        onRetry: opts.onProviderRetry,
      });
  }
}
