import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { seedDemoStaff } from '../apps/server/src/demo/seed.js';

export const BENCH_PASSWORD = 'portal-demo-bench';

/** The real app on a throw-away database: PGlite in memory, or BENCH_DATABASE_URL (PostgreSQL). */
export async function benchApp() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-bench-'));
  const database = await openDatabase(process.env.BENCH_DATABASE_URL ? { url: process.env.BENCH_DATABASE_URL } : {});
  await migrateToLatest(database.db);
  await seedDemoStaff(database.db, { password: BENCH_PASSWORD });
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_PASSWORD: BENCH_PASSWORD });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  return {
    app,
    config,
    database,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { n: s.length, mean: +mean.toFixed(2), p50: +q(0.5).toFixed(2), p95: +q(0.95).toFixed(2), max: +s[s.length - 1]!.toFixed(2) };
}

/**
 * A throw-away database: PGlite in memory, or a fresh database made (and dropped) on `url`
 * (BENCH_DATABASE_URL unless given; null: PGlite).
 */
export async function benchDatabase(
  url: string | null = process.env.BENCH_DATABASE_URL ?? null,
): Promise<{ database: DatabaseHandle; drop: () => Promise<void> }> {
  if (!url) {
    const database = await openDatabase({});
    return { database, drop: async () => {} };
  }
  const name = `mfa_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ url: u.toString(), poolSize: 10 });
  return {
    database,
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
