import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import type { Database } from './schema.js';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

// PostgreSQL `timestamptz` and `int8` come back as Date and string by default; counts must be numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

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
}): Promise<DatabaseHandle> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    pool.on('error', opts.onPoolError ?? ((err) => console.warn(`database: idle connection closed: ${err.message}`)));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  let pglite = opts.pglite;
  const owned = !pglite;
  if (!pglite) {
    const dir = opts.pgliteDir ?? 'memory://';
    if (!dir.startsWith('memory://')) fs.mkdirSync(path.dirname(dir), { recursive: true });
    pglite = await PGlite.create(dir);
  }
  const pool = new pg.Pool({ ...(createPgConfig(pglite) as unknown as pg.PoolConfig), max: 1 });
  const dialect: Dialect = new PostgresDialect({ pool });
  const db = new Kysely<Database>({ dialect });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      if (owned) await pglite!.close();
    },
  };
}
