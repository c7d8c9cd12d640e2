import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MfaData } from '@mfa-portal/shared';
import type { AppConfig } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { startChangeFeed, type ChangeListener } from './db/change-feed.js';
import { ReadCache } from './lib/read-cache.js';
import { userDataTtlMs } from './modules/account/user-data-cache.js';
import type { PortalMetrics } from './modules/metrics/metrics.registry.js';
import { cacheLookupRecorder } from './modules/metrics/metrics.recorders.js';
import { REVOCATION_CACHE_TTL_MS, type SessionRevocation } from './modules/sessions/sessions.service.js';

/**
 * The per-user read caches (READ_CACHE): each user's session revocation, and their MFA data when the
 * provider keeps it in the portal's own database (every change to it reaches the change feed; Duo's
 * does not, so its data is always asked).
 */
export interface ReadCaches {
  revocations: ReadCache<SessionRevocation | null> | null;
  userData: ReadCache<MfaData> | null;
  all: ReadCache<unknown>[];
}

/** Users whose reads are kept, per cache (the oldest go first): about 1 KiB each, some 20 MiB at most. */
const READ_CACHE_ENTRIES = 20_000;

export function readCachesFor(config: AppConfig, cachesUserData: boolean, metrics?: PortalMetrics): ReadCaches {
  if (!config.readCache) return { revocations: null, userData: null, all: [] };
  const onLookup = (name: string) => (metrics ? { onLookup: cacheLookupRecorder(metrics, name) } : {});
  const revocations = new ReadCache<SessionRevocation | null>({
    name: 'revocation',
    maxEntries: READ_CACHE_ENTRIES,
    ttlMs: () => REVOCATION_CACHE_TTL_MS,
    ...onLookup('revocation'),
  });
  const userData = cachesUserData
    ? new ReadCache<MfaData>({ name: 'user_data', maxEntries: READ_CACHE_ENTRIES, ttlMs: userDataTtlMs, ...onLookup('user_data') })
    : null;
  return { revocations, userData, all: [revocations, ...(userData ? [userData] : [])] as ReadCache<unknown>[] };
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whose cached reads a successful change through this instance may have touched: the signed-in caller
 * (self-service), and the user an administration route acts on. Changes of other kinds (SCIM, the
 * sign-in pages, an administrator's change found by a token's serial) reach the caches through the
 * change feed, like a change made on another instance: none of their callers reads these caches.
 */
function usersTouchedBy(request: FastifyRequest, reply: FastifyReply): string[] {
  if (READS.has(request.method) || reply.statusCode >= 400) return [];
  const caller = (request as { caller?: { upn?: string } }).caller;
  if (!caller?.upn) return [];
  const users = [caller.upn];
  const target = (request.params as { upn?: unknown } | undefined)?.upn;
  if (typeof target === 'string' && request.routeOptions.url?.includes('/api/admin/users/:upn')) users.push(target.trim().toLowerCase());
  return users;
}

/**
 * The per-user read caches follow the database's change feed, which names the users every committed
 * change touched, on every instance. A change made through this instance also drops the reads of the
 * users it touched before its answer leaves: their next request here sees it, whatever the feed's
 * delay. Only an authenticated change that succeeded does: anyone may send a request that fails.
 * `listeners` hear the feed too (the pushes' server-sent events), with or without caches (READ_CACHE).
 * The feed starts now and stops when the app closes.
 */
export function installReadCaches(
  app: FastifyInstance,
  database: DatabaseHandle,
  caches: ReadCache<unknown>[],
  metrics: PortalMetrics,
  heartbeatMs: number,
  listeners: readonly ChangeListener[] = [],
): void {
  if (caches.length === 0 && listeners.length === 0) return void app.decorate('changeFeed', null);
  const log = app.log.child({ module: 'change-feed' });
  const feed = startChangeFeed(database, [...caches, ...listeners], {
    heartbeatMs,
    onState: (listening, state) => {
      metrics.changeFeedListening.set(listening ? 1 : 0);
      if (listening) log.debug('listening to the change feed: per-user reads are kept');
      else log.warn({ state }, 'the change feed is not heard: per-user reads are not kept until it is back');
    },
    onHeartbeatMissed: () => metrics.changeFeedHeartbeatsMissed.inc(),
  });
  if (caches.length > 0)
    app.addHook('onSend', async (request, reply, payload) => {
      const users = usersTouchedBy(request, reply);
      if (users.length > 0) for (const cache of caches) cache.invalidate(users);
      return payload;
    });
  app.addHook('onClose', async () => feed.stop());
  app.decorate('changeFeed', feed);
}
