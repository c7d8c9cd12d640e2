import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { ReadCache } from '../lib/read-cache.js';
import type { DatabaseHandle } from './database.js';
import { CHANGE_CHANNEL } from './migrations/0017_change_feed.js';

/**
 * Keeps per-user read caches true to the database (issue 16). The triggers of migration 0017 name, on
 * commit, the users each change touched, whoever made it (a request on any instance, a job, SCIM, a
 * script); this drops their cached reads on this instance. While the feed is not listening (before it
 * starts, after its connection failed and until it is back), the caches keep nothing: a change could
 * go unheard. `*` (a change to very many users) drops everything.
 */
export interface ChangeFeed {
  /** Whether notifications are being heard now. */
  readonly listening: boolean;
  /**
   * Resolves true once every change committed before the call has been heard (a marker sent through
   * the database comes back after them: notifications arrive in commit order); false when the feed is
   * not listening or the marker did not come back within `timeoutMs`.
   */
  heard(timeoutMs?: number): Promise<boolean>;
  stop(): Promise<void>;
}

/** Markers of `heard` start with this; a sign-in name never does. */
const MARKER = '~';

export function startChangeFeed(
  database: Pick<DatabaseHandle, 'subscribe' | 'db'>,
  caches: readonly ReadCache<unknown>[],
  opts: { onState?: (listening: boolean) => void } = {},
): ChangeFeed {
  let listening = false;
  if (!database.subscribe || caches.length === 0) return { listening, heard: async () => false, stop: async () => {} };
  const markers = new Map<string, (heard: boolean) => void>();
  const stop = database.subscribe(
    CHANGE_CHANNEL,
    (payload) => {
      if (payload.startsWith(MARKER)) markers.get(payload)?.(true);
      else if (payload === '*') for (const cache of caches) cache.clear();
      else {
        const names = payload.split('\n');
        for (const cache of caches) cache.invalidate(names);
      }
    },
    (state) => {
      listening = state;
      for (const cache of caches) cache.setLive(state);
      opts.onState?.(state);
    },
  );
  return {
    get listening() {
      return listening;
    },
    async heard(timeoutMs = 5000) {
      if (!listening) return false;
      const marker = `${MARKER}${randomUUID()}`;
      const back = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => settle(false), timeoutMs);
        const settle = (heard: boolean) => {
          clearTimeout(timer);
          markers.delete(marker);
          resolve(heard);
        };
        markers.set(marker, settle);
      });
      await sql`select pg_notify(${CHANGE_CHANNEL}, ${marker})`.execute(database.db);
      return back;
    },
    async stop() {
      listening = false;
      for (const cache of caches) cache.setLive(false);
      await stop();
    },
  };
}
