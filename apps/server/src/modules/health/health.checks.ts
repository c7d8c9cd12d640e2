import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { databaseCheck, NotReady, type ReadinessCheck } from './health.service.js';

/**
 * What /readyz checks for this portal: the database answers, signing keys are loaded (embedded
 * provider) or the Entra tenant's key set is configured, and the MFA provider is configured.
 */
export function portalReadinessChecks(deps: {
  config: AppConfig;
  db: Kysely<Database>;
  /** The embedded provider's public keys (undefined with Entra ID). */
  publicJwks: { keys: unknown[] } | undefined;
  mfaName: string;
}): ReadinessCheck[] {
  const { config } = deps;
  return [
    databaseCheck(deps.db, config.databaseTimeouts.readinessMs),
    {
      name: 'signingKeys',
      run() {
        const ok = config.idp.mode === 'embedded' ? Boolean(deps.publicJwks?.keys.length) : Boolean(config.idp.tenantId);
        if (!ok) throw new NotReady('no signing keys');
      },
    },
    {
      name: 'mfaProvider',
      run() {
        if (!deps.mfaName || (config.mfaProvider === 'duo' && !config.duo)) throw new NotReady('not configured');
      },
    },
  ];
}
