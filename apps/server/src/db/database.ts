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
  };
}
