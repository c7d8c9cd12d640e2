import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPglite, openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { seedDemoStaff } from '../src/demo/seed.js';
import { TEST_PASSWORD } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgliteSeededTemplate: string;
    pgTemplateDatabase: string;
    pgSeededTemplateDatabase: string;
    pgDatabasePrefix: string;
  }
}

/**
 * Migrates one template database per run; every test file then starts from a copy of it:
 * a PGlite data-dir dump, or (TEST_DATABASE_URL) a PostgreSQL database created FROM TEMPLATE.
 *
 * A second template also holds the demo staff, as a portal that has started once does. An app built
 * for a test starts from that one: seeding the staff hashes two dozen passwords with scrypt, slow on
 * purpose, and a whole run builds hundreds of apps.
 */
export default async function setup(project: TestProject) {
  if (project.name === 'server-pg') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('server-pg needs TEST_DATABASE_URL');
    // Every run names its databases with its own prefix, so runs side by side never touch each other's.
    const prefix = `mfa_portal_t${randomBytes(4).toString('hex')}_`;
    const template = `${prefix}template`;
    const seededTemplate = `${prefix}seeded`;
    // Both templates are made from this one connection to the server's own database: a database is
    // cloned only while nobody is connected to it.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const prepare = async (name: string, from: string | null, fill: (db: DatabaseHandle['db']) => Promise<unknown>) => {
      await admin.query(`create database "${name}"${from ? ` template "${from}"` : ''}`);
      const databaseUrl = new URL(url);
      databaseUrl.pathname = `/${name}`;
      const handle = await openDatabase({ url: databaseUrl.toString(), poolSize: 1 });
      await fill(handle.db);
      await handle.close();
    };
    await prepare(template, null, migrateToLatest);
    await prepare(seededTemplate, template, (db) => seedDemoStaff(db, { password: TEST_PASSWORD }));
    await admin.end();
    project.provide('pgTemplateDatabase', template);
    project.provide('pgSeededTemplateDatabase', seededTemplate);
    project.provide('pgDatabasePrefix', prefix);
    project.provide('pgliteTemplate', '');
    project.provide('pgliteSeededTemplate', '');
    return async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const rows = await c.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
      for (const { datname } of rows.rows) await c.query(`drop database if exists "${datname}" with (force)`);
      await c.end();
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-'));
  const dump = async (pglite: Awaited<ReturnType<typeof createPglite>>, name: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    return file;
  };
  const pglite = await createPglite();
  const handle = await openDatabase({ pglite });
  await migrateToLatest(handle.db);
  await handle.close();
  const migrated = await dump(pglite, 'template.tar');
  await pglite.close();
  const copy = await createPglite({ loadDataDir: new Blob([fs.readFileSync(migrated)]) });
  const seeded = await openDatabase({ pglite: copy });
  await seedDemoStaff(seeded.db, { password: TEST_PASSWORD });
  await seeded.close();
  const seededFile = await dump(copy, 'seeded.tar');
  await copy.close();
  project.provide('pgliteTemplate', migrated);
  project.provide('pgliteSeededTemplate', seededFile);
  project.provide('pgTemplateDatabase', '');
  project.provide('pgSeededTemplateDatabase', '');
  project.provide('pgDatabasePrefix', '');
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
