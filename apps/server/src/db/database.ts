import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
import pg from 'pg';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import type { Database } from './schema.js';
import { withUnitOfWork } from './unit-of-work.js';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL's connection URL (a worker thread opens its own connection); undefined on PGlite. */
  url?: string;
  close(): Promise<void>;
  /** Connections of the pool now (for metrics). */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /**
   * Listens to notification channels (PostgreSQL LISTEN, all on one connection of its own that comes
   * back by itself after a failure, so they arrive in commit order whatever their channel; PGlite's own
   * listeners). `onState(false)` when notifications may have been missed (the connection failed),
   * `onState(true)` once listening (again). Answers how to stop. (`channel` is always given; optional
   * so that a listener of a single channel may ignore it.)
   */
  subscribe?(
    channels: string | readonly string[],
    onMessage: (payload: string, channel?: string) => void,
    onState: (listening: boolean) => void,
  ): () => Promise<void>;
}

/** How long a lost notification connection waits before its next attempt (doubling up to the last). */
const LISTEN_RETRY_MS = [250, 500, 1000, 2000, 5000];

/**
 * TCP keep-alive of the listening connection: it only receives, so a peer gone without a word (a NAT
 * that forgot it, a fail-over) would otherwise never be noticed. The change feed's heartbeat notices
 * sooner; this lets the operating system close what is dead.
 */
const LISTEN_KEEPALIVE_MS = 10_000;

/** How long ending the listening connection may take before its socket is destroyed (a silent peer never answers). */
const LISTEN_END_MS = 1000;

/** What the listening connection is called in pg_stat_activity. */
export const LISTEN_APPLICATION_NAME = 'mfa-portal change feed';

async function endClient(c: pg.Client): Promise<void> {
  const socket = (c as unknown as { connection?: { stream?: { destroy?: () => void } } }).connection?.stream;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, LISTEN_END_MS);
    timer.unref();
  });
  await Promise.race([c.end().catch(() => {}), late]);
  clearTimeout(timer);
  socket?.destroy?.();
}

/** LISTEN on a dedicated PostgreSQL connection, reconnecting after any failure (see DatabaseHandle.subscribe). */
function subscribePostgres(
  url: string,
  channels: readonly string[],
  onMessage: (payload: string, channel: string) => void,
  onState: (listening: boolean) => void,
  connectMs: number | undefined,
): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let attempt = 0;
  const retry = () => {
    if (stopped || timer) return;
    const wait = LISTEN_RETRY_MS[Math.min(attempt++, LISTEN_RETRY_MS.length - 1)]!;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, wait);
    timer.unref();
  };
  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    onState(false);
    void endClient(c);
    retry();
  };
  const connect = async () => {
    const c = new pg.Client({
      connectionString: url,
      application_name: LISTEN_APPLICATION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: LISTEN_KEEPALIVE_MS,
      ...(connectMs ? { connectionTimeoutMillis: connectMs } : {}),
    });
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (n) => {
      if (channels.includes(n.channel)) onMessage(n.payload ?? '', n.channel);
    });
    client = c;
    try {
      await c.connect();
      // Keep the process free to exit: this connection only listens.
      (c as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      await c.query(channels.map((channel) => `listen ${pg.escapeIdentifier(channel)}`).join('; '));
      if (stopped || client !== c) return void endClient(c);
      attempt = 0;
      onState(true);
    } catch {
      lost(c);
    }
  };
  void connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const c = client;
    client = null;
    if (c) await endClient(c);
  };
}

// PostgreSQL `timestamptz` and `int8` come back as Date and string by default; counts must be numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * PGlite's memory: PostgreSQL's default 128 MB of shared buffers live in the WebAssembly heap and
 * count in the process's resident memory. The embedded database is small and its pages stay in the
 * operating system's file cache anyway, so 16 MB is ample (measured: ~300 → ~190 MiB after opening).
 */
const PGLITE_MEMORY_PARAMS = [
  '-c',
  'shared_buffers=16MB',
  '-c',
  'temp_buffers=2MB',
  '-c',
  'work_mem=4MB',
  '-c',
  'maintenance_work_mem=32MB',
];

/**
 * A PGlite instance with the extensions the migrations create (pg_trgm: trigram indexes of the admin
 * user search) and a small memory footprint. Every PGlite the portal or its tests open goes through here.
 */
export function createPglite(options: Omit<PGliteOptions, 'extensions' | 'startParams'> = {}): Promise<PGlite> {
  return PGlite.create({
    ...options,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY_PARAMS],
    extensions: { pg_trgm },
  }) as Promise<PGlite>;
}

/**
 * Opens the database: real PostgreSQL through `pg` when a URL is given, otherwise PGlite
 * (PostgreSQL compiled to WASM) stored in `dataDir`. Both go through Kysely's own PostgresDialect.
 *
 * PGlite serialises every query on one connection: never await `db` inside a transaction callback,
 * always use the transaction object (`trx`), or the process deadlocks.
 */
export async function openDatabase(opts: {
  url?: string;
  pgliteDir?: string;
  pglite?: PGlite;
  poolSize?: number;
  /** An idle connection that the server closed (restart, fail-over) must not crash the process. */
  onPoolError?: (err: Error) => void;
  /**
   * Bounded waits (PostgreSQL only): a connection attempt, and one query (the client gives up and
   * the server cancels the statement), so an outage answers quickly instead of hanging requests.
   */
  timeouts?: { connectMs: number; queryMs: number };
}): Promise<DatabaseHandle> {
  if (opts.url) {
    const max = opts.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: opts.url,
      max,
      ...(opts.timeouts
        ? {
            connectionTimeoutMillis: opts.timeouts.connectMs,
            query_timeout: opts.timeouts.queryMs,
            statement_timeout: opts.timeouts.queryMs,
          }
        : {}),
    });
    const onError = opts.onPoolError ?? ((err: Error) => console.warn(`database: idle connection closed: ${err.message}`));
    pool.on('error', onError);
    // A connection checked out between two queries (inside a transaction) has no listener of the
    // pool's: without one, a server restart would crash the process. The query in progress fails
    // (503), and the pool discards the broken connection when it is released.
    pool.on('connect', (client) => client.on('error', onError));
    // Ambient-transaction aware (db/unit-of-work.ts): a change and its audit event commit together.
    const db = withUnitOfWork(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }));
    return {
      db,
      kind: 'postgres',
      url: opts.url,
      close: () => db.destroy(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
      subscribe: (channels, onMessage, onState) =>
        subscribePostgres(opts.url!, [channels].flat(), onMessage, onState, opts.timeouts?.connectMs),
    };
  }
  let pglite = opts.pglite;
  const owned = !pglite;
  if (!pglite) {
    const dir = opts.pgliteDir ?? 'memory://';
    if (!dir.startsWith('memory://')) fs.mkdirSync(path.dirname(dir), { recursive: true });
    pglite = await createPglite({ dataDir: dir });
  }
  const pool = new pg.Pool({ ...(createPgConfig(pglite) as unknown as pg.PoolConfig), max: 1 });
  const dialect: Dialect = new PostgresDialect({ pool });
  const db = withUnitOfWork(new Kysely<Database>({ dialect }));
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      if (owned) await pglite!.close();
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: 1 }),
    // One process owns the embedded database: its notifications arrive after the query that caused them.
    subscribe: (channels, onMessage, onState) => {
      const unlisten: (() => Promise<void>)[] = [];
      let stopped = false;
      const quiet = () => Promise.all(unlisten.splice(0).map((stop) => stop().catch(() => {})));
      void Promise.all(
        [channels].flat().map(async (channel) => {
          unlisten.push(await pglite!.listen(channel, (payload) => onMessage(payload, channel)));
        }),
      ).then(
        () => (stopped ? void quiet() : onState(true)),
        () => {
          void quiet();
          if (!stopped) onState(false);
        },
      );
      return async () => {
        stopped = true;
        await quiet();
      };
    },
  };
}
