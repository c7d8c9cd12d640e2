import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp, createServices, seedDemoData, type Services } from '../src/app.js';
import { loadConfig, type AppConfig } from '../src/config.js';
import type { DatabaseHandle } from '../src/db/database.js';
import { seedDemoStaff } from '../src/demo/seed.js';
import type { MfaProvider } from '../src/mfa/index.js';
import { createTestDatabase, TEST_PASSWORD } from './database.js';

export { TEST_PASSWORD };

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  database: DatabaseHandle;
  webRoot: string;
  close(): Promise<void>;
}

/** A minimal built SPA: enough to check how the server serves it. */
export function makeWebFixture(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-web-'));
  fs.mkdirSync(path.join(dir, 'static/js'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><base href="/" /><script type="module" src="./static/js/index-abc.js"></script></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'static/js/index-abc.js'), 'console.log("app")');
  // What the web build writes next to each asset (apps/web/src/lib/build/precompress.ts).
  fs.writeFileSync(path.join(dir, 'static/js/index-abc.js.br'), brotliCompressSync('console.log("app")'));
  fs.writeFileSync(path.join(dir, 'static/js/index-abc.js.gz'), gzipSync('console.log("app")'));
  fs.writeFileSync(path.join(dir, 'service-worker.js'), 'self.addEventListener("fetch", () => {})');
  fs.writeFileSync(path.join(dir, 'auth-bridge.html'), '<!doctype html><title>bridge</title>');
  return dir;
}

/**
 * The real app on a fresh database (seeded with the demo staff), configured as the embedded default
 * at https://localhost:8443/ unless `env` says otherwise. Requests go through `app.inject`.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  opts: { database?: DatabaseHandle; seed?: boolean; clock?: () => Date } = {},
): Promise<TestApp> {
  // A database of its own starts with the demo staff in it (the seed below then only checks).
  const database = opts.database ?? (await createTestDatabase({ demoStaff: opts.seed !== false }));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-data-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, DEMO_PASSWORD: TEST_PASSWORD, LOG_LEVEL: 'silent', ...env });
  if (opts.seed !== false) await seedDemoStaff(database.db, { password: TEST_PASSWORD });
  // What a start of the portal seeds besides (DEMO_DATA, embedded mode): the provider's demo tokens and secrets.
  await seedDemoData(config, database);
  const webRoot = makeWebFixture();
  const app = await buildApp({ config, database, webRoot, logger: false, ...(opts.clock ? { clock: opts.clock } : {}) });
  await app.ready();
  // The per-user read caches keep values once the change feed listens: start every test from there.
  for (let i = 0; i < 200 && app.changeFeed && !app.changeFeed.listening; i++) await new Promise((r) => setTimeout(r, 25));
  return {
    app,
    config,
    database,
    webRoot,
    close: async () => {
      await app.close();
      if (!opts.database) await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(webRoot, { recursive: true, force: true });
    },
  };
}

/**
 * The app's collaborators (audit log, verification service, step-up, ...) on `database`, built by the
 * composition root exactly as the app builds them: for tests that mount one part (e.g. the identity
 * provider) on a bare Fastify instance.
 */
export function testServices(config: AppConfig, database: DatabaseHandle, mfa?: MfaProvider): Services {
  return createServices(config, database, mfa ? { mfa } : {});
}
