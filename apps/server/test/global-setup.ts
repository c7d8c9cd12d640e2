import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPglite, openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplateDatabase: string;
    pgDatabasePrefix: string;
  }
}

/**
 * Migrates one template database per run; every test file then starts from a copy of it:
 * a PGlite data-dir dump, or (TEST_DATABASE_URL) a PostgreSQL database created FROM TEMPLATE.
 */
export default async function setup(project: TestProject) {
  if (project.name === 'server-pg') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('server-pg needs TEST_DATABASE_URL');
    // Every run names its databases with its own prefix, so runs side by side never touch each other's.
    const prefix = `mfa_portal_t${randomBytes(4).toString('hex')}_`;
    const template = `${prefix}template`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${template}"`);
    await admin.end();
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${template}`;
    const handle = await openDatabase({ url: templateUrl.toString(), poolSize: 1 });
    await migrateToLatest(handle.db);
    await handle.close();
    project.provide('pgTemplateDatabase', template);
    project.provide('pgDatabasePrefix', prefix);
    project.provide('pgliteTemplate', '');
    return async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const rows = await c.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
      for (const { datname } of rows.rows) await c.query(`drop database if exists "${datname}" with (force)`);
      await c.end();
    };
  }
  const pglite = await createPglite();
  const handle = await openDatabase({ pglite });
  await migrateToLatest(handle.db);
  await handle.close();
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-')), 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('pgTemplateDatabase', '');
  project.provide('pgDatabasePrefix', '');
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
