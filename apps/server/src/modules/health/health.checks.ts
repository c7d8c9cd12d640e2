import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { ChangeFeed } from '../../db/change-feed.js';
import type { Database } from '../../db/schema.js';
import { databaseCheck, NotReady, type ReadinessCheck } from './health.service.js';

/** Why the change feed is not heard, as /readyz says it. */
const CHANGE_FEED_REASONS: Record<Exclude<ChangeFeed['state'], 'listening'>, string> = {
  disconnected: 'not connected: per-user reads are not kept',
  silent: 'heartbeat not heard: per-user reads are not kept',
  stopped: 'stopped: per-user reads are not kept',
};

/**
 * What /readyz checks for this portal: the database answers, signing keys are loaded (embedded
 * provider) or the Entra tenant's key set is configured, and the MFA provider is configured. The
 * change feed (when there are read caches) only degrades: unheard, every read goes to the database,
 * which is slower but right.
 */
export function portalReadinessChecks(deps: {
  config: AppConfig;
  db: Kysely<Database>;
  /** The embedded provider's public keys (undefined with Entra ID). */
  publicJwks: { keys: unknown[] } | undefined;
  mfaName: string;
  /** The read caches' change feed (null or absent without read caches). */
  changeFeed?: Pick<ChangeFeed, 'listening' | 'state'> | null;
}): ReadinessCheck[] {
  const { config, changeFeed } = deps;
  const feed: ReadinessCheck[] = changeFeed
    ? [
        {
          name: 'changeFeed',
          degradesOnly: true,
          run() {
            const { state } = changeFeed;
            if (!changeFeed.listening) throw new NotReady(state === 'listening' ? CHANGE_FEED_REASONS.silent : CHANGE_FEED_REASONS[state]);
          },
        },
      ]
    : [];
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
    ...feed,
  ];
}
