import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPglite, openDatabase, type DatabaseHandle } from '../src/db/database.js';

/** The demo staff's password in the tests' databases (the seeded template's, and buildTestApp's). */
export const TEST_PASSWORD = 'portal-demo-test';

/**
 * A fresh, migrated database for one test file: a PGlite copy of the template, or a PostgreSQL
 * database cloned from the template when the suite runs as the `server-pg` project. With `demoStaff`,
 * the copy already holds the demo staff with TEST_PASSWORD, as seedDemoStaff writes them (global-setup.ts).
 */
export async function createTestDatabase(opts: { demoStaff?: boolean } = {}): Promise<DatabaseHandle> {
  const pgTemplate = inject(opts.demoStaff ? 'pgSeededTemplateDatabase' : 'pgTemplateDatabase');
  if (pgTemplate) {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `${inject('pgDatabasePrefix')}${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${name}" template "${pgTemplate}"`);
    await admin.end();
    const u = new URL(url);
    u.pathname = `/${name}`;
    // Dropping the database at the end terminates any connection still open: expected, not an error.
    const handle = await openDatabase({ url: u.toString(), poolSize: 5, onPoolError: () => {} });
    return {
      ...handle,
      close: async () => {
        await handle.close();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop database if exists "${name}" with (force)`);
        await c.end();
      },
    };
  }
  const blob = new Blob([fs.readFileSync(inject(opts.demoStaff ? 'pgliteSeededTemplate' : 'pgliteTemplate'))]);
  const pglite = await createPglite({ loadDataDir: blob });
  const handle = await openDatabase({ pglite });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await pglite.close();
    },
  };
}
