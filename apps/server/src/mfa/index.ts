import type { Kysely } from 'kysely';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import { createBuiltinProvider } from './builtin/builtin-provider.js';
import type { MfaProvider } from './port.js';

export type { MfaProvider } from './port.js';

/** Chooses the adapter named by MFA_PROVIDER. */
export function createMfaProvider(config: AppConfig, db: Kysely<Database>): MfaProvider {
  switch (config.mfaProvider) {
    case 'builtin':
      return createBuiltinProvider(db);
    case 'duo':
      // The Duo adapter is delivered by its own issue; refuse clearly rather than pretend.
      throw new Error('MFA_PROVIDER=duo is not available in this version yet; use MFA_PROVIDER=builtin');
  }
}
