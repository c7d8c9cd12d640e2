import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { answerPasscode, DEMO_PASSWORD, demoTokenSeed, hotp, signInAt } from './helpers';
import { expectAccessible, pressButton, watchCsp } from './support/portal';
import { startPortalProcess, type PortalProcess } from './support/portal-process';

/**
 * Tampering with the audit log in the database is detected, end to end. The shared e2e server holds
 * its PGlite database inside its own process, so this journey runs a portal of its own (the same
 * server.ts, its own data directory and port): events are made through the browser, the server is
 * stopped, one row is edited straight in the database files, the server is started again on them, and
 * "Verify the chain" in the administration area names the edited event as the first broken link.
 */
const PORT = Number(process.env.E2E_PORT ?? 8643) + 57;
const BASE = `https://localhost:${PORT}/`;
const ADMIN = 'admin@example.com';
const ADMIN_TOKEN = 'D100-0006';
const serverEntry = path.join(import.meta.dirname, '..', '..', 'apps', 'server', 'src', 'server.ts');

let dataDir: string;
let server: PortalProcess | undefined;
let counter = 0;
const nextAdminCode = () => hotp(demoTokenSeed(ADMIN_TOKEN), counter++);

async function startServer(): Promise<void> {
  server = await startPortalProcess({
    entry: serverEntry,
    baseUrl: BASE,
    env: { PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'test', DEMO_PASSWORD },
    timeoutMs: 90_000,
  });
}

async function stopServer(): Promise<void> {
  const portal = server;
  server = undefined;
  await portal?.stop();
}

async function signedInAdmin(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE, ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.goto('/admin/audit');
  await signInAt(page, ADMIN, DEMO_PASSWORD, { secondFactor: 'none' });
  await answerPasscode(page, nextAdminCode());
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  return page;
}

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-e2e-tamper-'));
  await startServer();
});

test.afterAll(async () => {
  await stopServer();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('an audit row edited in the database is reported as the first broken link', async ({ browser }) => {
  test.setTimeout(180_000);
  let tamperedId = '';

  await test.step('the log is intact after a sign-in', async () => {
    const page = await signedInAdmin(browser);
    await pressButton(page, 'Verify the chain');
    await expect(page.getByText('The audit log is intact')).toBeVisible();
    await page.context().close();
  });

  await test.step('someone with access to the database files rewrites the sign-in check', async () => {
    await stopServer();
    // With pg_trgm, as the portal opens it: the audit log's names have trigram indexes to keep up to date.
    const db = await PGlite.create({ dataDir: path.join(dataDir, 'db'), extensions: { pg_trgm } });
    try {
      const { rows } = await db.query<{ id: string }>(
        `select id::text as id from audit_event where action = 'mfa.verify' order by id limit 1`,
      );
      expect(rows, 'the sign-in left an mfa.verify event').toHaveLength(1);
      tamperedId = rows[0]!.id;
      // The append-only trigger refuses UPDATE; whoever holds the database files can lift it.
      await db.exec('alter table audit_event disable trigger all');
      const updated = await db.query(`update audit_event set outcome = 'failure', reason = 'edited by hand' where id = $1::bigint`, [
        tamperedId,
      ]);
      expect(updated.affectedRows).toBe(1);
      await db.exec('alter table audit_event enable trigger all');
    } finally {
      await db.close();
    }
    await startServer();
  });

  await test.step('"Verify the chain" names the edited event', async () => {
    const page = await signedInAdmin(browser);
    const csp = watchCsp(page);
    await pressButton(page, 'Verify the chain');
    await expect(page.getByText('The audit log has been tampered with')).toBeVisible();
    await expect(page.getByText(`The first broken link is event ${tamperedId}`, { exact: false })).toBeVisible();
    await expectAccessible(page, 'the chain reported broken');
    expect(csp.violations()).toEqual([]);
    await page.context().close();
  });
});
