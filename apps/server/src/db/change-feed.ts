import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DatabaseHandle } from './database.js';
import { CHANGE_CHANNEL } from './migrations/0017_change_feed.js';

/**
 * Keeps what listens to it (the per-user read caches) true to the database. The triggers of migration
 * 0017 name, on commit, the users each change touched, whoever made it (a request on any instance, a
 * job, SCIM, a script); the feed tells its listeners, on this instance. While the feed is not heard
 * (before it starts, after its connection failed or went silent, until it is back), its listeners are
 * told it is not live: a change could go unheard. `*` (a change to very many users) clears everything.
 *
 * A connection can look open while nothing arrives any more (a NAT that forgot it, a fail-over that
 * left the socket half-open). So a heartbeat goes through the database every `heartbeatMs`: a marker
 * that must come back on the listening connection before the next one is due. One that does not makes
 * the feed *silent* (its listeners not live) and opens a new listening connection; the first heartbeat heard
 * again makes them live once more.
 */
export interface ChangeFeed {
  /** Whether notifications are being heard now (listening, and the last heartbeat came back in time). */
  readonly listening: boolean;
  /** Why it is or is not listening. */
  readonly state: ChangeFeedState;
  /**
   * Resolves true once every change committed before the call has been heard (a marker sent through
   * the database comes back after them: notifications arrive in commit order); false when the feed is
   * not listening or the marker did not come back within `timeoutMs`.
   */
  heard(timeoutMs?: number): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * `disconnected`: no listening connection (not yet, or it failed and is being opened again);
 * `silent`: a heartbeat did not come back in time, and none has since.
 */
export type ChangeFeedState = 'listening' | 'disconnected' | 'silent' | 'stopped';

/**
 * What the feed tells (a read cache is one): the database layer knows no cache, only that someone
 * keeps something per user that a committed change can make stale.
 */
export interface ChangeListener {
  /** Whether changes are heard now; either way, whatever was kept goes (a change could have gone unheard). */
  setLive(live: boolean): void;
  /** The users a committed change touched. */
  invalidate(users: string[]): void;
  /** A change to very many users: everything kept goes. */
  clear(): void;
}

export interface ChangeFeedOptions {
  /** Each change of `listening`, with the state that caused it (not called by `stop`). */
  onState?: (listening: boolean, state: ChangeFeedState) => void;
  /** Each heartbeat that did not come back in time. */
  onHeartbeatMissed?: () => void;
  /** How often a heartbeat is sent, and how long it may take to come back (milliseconds). */
  heartbeatMs?: number;
}

/**
 * Markers travel on a channel of their own, on the same connection as the changes: they still arrive
 * in commit order, and no sign-in name (any text) can ever be taken for one.
 */
export const MARKER_CHANNEL = 'portal_change_feed_markers';

export const DEFAULT_HEARTBEAT_MS = 5000;

export function startChangeFeed(
  database: Pick<DatabaseHandle, 'subscribe' | 'db'>,
  listeners: readonly ChangeListener[],
  opts: ChangeFeedOptions = {},
): ChangeFeed {
  if (!database.subscribe || listeners.length === 0) {
    return { listening: false, state: 'stopped', heard: async () => false, stop: async () => {} };
  }
  const subscribe = database.subscribe.bind(database);
  const heartbeatMs = opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const markers = new Map<string, (heard: boolean) => void>();
  let connected = false;
  let silent = false;
  let stopped = false;
  let listening = false;
  /** Which subscription is current: the state of one replaced or stopped no longer counts. */
  let subscription = 0;
  /** Bumped by every (re)connection: a heartbeat sent before it says nothing of the new connection. */
  let connection = 0;
  let unsubscribe: () => Promise<void> = async () => {};
  let timer: NodeJS.Timeout | null = null;
  let beating = false;

  const state = (): ChangeFeedState => (stopped ? 'stopped' : silent ? 'silent' : connected ? 'listening' : 'disconnected');

  const update = () => {
    const now = connected && !silent && !stopped;
    if (now === listening) return;
    listening = now;
    for (const listener of listeners) listener.setLive(now);
    opts.onState?.(now, state());
  };

  /** Sends a marker through the database; true once it came back on the listening connection. */
  const probe = (timeoutMs: number, unref: boolean): Promise<boolean> => {
    const marker = randomUUID();
    return new Promise<boolean>((resolve) => {
      const wait = setTimeout(() => settle(false), timeoutMs);
      if (unref) wait.unref();
      const settle = (heard: boolean) => {
        clearTimeout(wait);
        markers.delete(marker);
        resolve(heard);
      };
      markers.set(marker, settle);
      sql`select pg_notify(${MARKER_CHANNEL}, ${marker})`.execute(database.db).catch(() => settle(false));
    });
  };

  const listen = () => {
    const mine = ++subscription;
    unsubscribe = subscribe(
      [CHANGE_CHANNEL, MARKER_CHANNEL],
      (payload, channel) => {
        if (channel === MARKER_CHANNEL) markers.get(payload)?.(true);
        else if (payload === '*') for (const listener of listeners) listener.clear();
        else {
          const names = payload.split('\n');
          for (const listener of listeners) listener.invalidate(names);
        }
      },
      (up) => {
        if (mine !== subscription || stopped) return;
        if (up) connection++;
        connected = up;
        update();
        // Back after a silence: a heartbeat now rather than at the next tick.
        if (up && silent) schedule(0);
      },
    );
  };

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    // The heartbeat never keeps the process alive.
    timer = setTimeout(() => void heartbeat(), ms);
    timer.unref();
  };

  const heartbeat = async () => {
    timer = null;
    // The heartbeat in flight schedules the next one.
    if (stopped || beating) return;
    if (!connected) return schedule(heartbeatMs);
    const on = connection;
    beating = true;
    const heard = await probe(heartbeatMs, true);
    beating = false;
    if (stopped) return;
    schedule(heartbeatMs);
    if (!connected || on !== connection) return;
    if (heard) {
      silent = false;
      return update();
    }
    opts.onHeartbeatMissed?.();
    silent = true;
    update();
    // A silent connection would only be closed by TCP keep-alive, much later: a new one now (the
    // old one ends meanwhile, its socket destroyed if its peer does not answer).
    const old = unsubscribe;
    connected = false;
    listen();
    void old().catch(() => {});
  };

  listen();
  schedule(heartbeatMs);

  return {
    get listening() {
      return listening;
    },
    get state() {
      return state();
    },
    async heard(timeoutMs = 5000) {
      if (!listening) return false;
      return probe(timeoutMs, false);
    },
    async stop() {
      stopped = true;
      subscription++;
      if (timer) clearTimeout(timer);
      timer = null;
      listening = false;
      for (const listener of listeners) listener.setLive(false);
      for (const settle of [...markers.values()]) settle(false);
      await unsubscribe();
    },
  };
}
