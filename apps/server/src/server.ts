import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildApp, seedDemoData } from './app.js';
import { ConfigError, loadConfig, type AppConfig } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { loadTls } from './lib/tls.js';

/** Set in the child process that prepares a new embedded database (see `prepareInChildProcess`). */
const PREPARE_ONLY = 'PORTAL_PREPARE_DATABASE_ONLY';

/**
 * A first start on PGlite creates the database (initdb in a WebAssembly instance of its own), migrates
 * it and seeds the demo staff (a dozen deliberately slow password hashes) in a short-lived child
 * process: the server then opens a prepared database, as on any later start, and keeps none of that
 * work's memory (measured: ~260 MiB resident after a first start instead of 350–800 MiB).
 */
async function prepareInChildProcess(): Promise<void> {
  const child = fork(process.argv[1]!, process.argv.slice(2), {
    execArgv: process.execArgv,
    env: { ...process.env, [PREPARE_ONLY]: '1' },
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (status) => resolve(status));
  });
  if (code !== 0) throw new Error(`preparing the embedded database failed (exit code ${code})`);
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const pgliteDir = path.join(config.dataDir, 'db');
  if (!config.databaseUrl && !process.env[PREPARE_ONLY] && !fs.existsSync(pgliteDir)) await prepareInChildProcess();
  const database: DatabaseHandle = await openDatabase(
    config.databaseUrl
      ? {
          url: config.databaseUrl,
          poolSize: config.databasePoolSize,
          timeouts: { connectMs: config.databaseTimeouts.connectMs, queryMs: config.databaseTimeouts.queryMs },
        }
      : { pgliteDir },
  );
  await migrateToLatest(database.db);
  // The demo data, once per start (DEMO_DATA=false: none, an empty directory that SCIM fills).
  await seedDemoData(config, database);
  if (process.env[PREPARE_ONLY]) {
    await database.close();
    return;
  }

  const tls = await loadTls(config);
  const app = await buildApp({ config, database, https: tls });

  // Graceful shutdown. Readiness says "not ready" at once, and for SHUTDOWN_DELAY_SECONDS the listener
  // keeps accepting and answering (with `Connection: close`), while the load balancer notices and stops
  // sending: a connection already in the accept queue is answered, never reset. Then the listener closes,
  // requests in flight get SHUTDOWN_GRACE_SECONDS to finish, the database closes, and the process exits 0.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.health.setDraining();
    const { shutdownDelaySeconds: delaySeconds, shutdownGraceSeconds: graceSeconds } = config;
    app.log.info({ signal, delaySeconds, graceSeconds }, 'shutting down');
    const timer = setTimeout(
      () => {
        app.log.error({ graceSeconds }, 'requests still running after the grace period; exiting');
        process.exit(1);
      },
      (delaySeconds + graceSeconds) * 1000,
    );
    timer.unref();
    try {
      if (delaySeconds > 0) await new Promise((resolve) => setTimeout(resolve, delaySeconds * 1000));
      await app.close(); // the metrics listener too
      await database.close();
      app.log.info('shut down');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  if (app.metricsServer) await app.metricsServer.listen({ host: config.metrics.host, port: config.metrics.port! });
  const lines = [
    '',
    `  MFA self-service portal is running at ${config.publicUrl}`,
    `  identity provider: ${config.idp.mode === 'embedded' ? `embedded (${config.idp.issuer})` : `Entra ID tenant ${config.idp.tenantId}`}`,
    `  database: ${database.kind === 'pglite' ? `PGlite in ${path.join(config.dataDir, 'db')}` : 'PostgreSQL'} · MFA provider: ${config.mfaProvider}`,
  ];
  if (config.idp.mode === 'embedded' && !config.provisioning.demoData) {
    lines.push('  no demo data (DEMO_DATA=false): provision staff over SCIM at ' + `${config.publicUrl}scim/v2`);
  } else if (config.idp.mode === 'embedded') {
    lines.push(
      `  demo staff: alice@, bob@, helpdesk@, admin@, disabled@, nomfa@example.com — password: ${config.idp.demoPassword}`,
      tls && config.tls.mode === 'self-signed'
        ? '  the certificate is self-signed: your browser will warn once; accept it to continue.'
        : '',
    );
  }
  console.log(lines.filter(Boolean).join('\n') + '\n');
}

main().catch((err: unknown) => {
  console.error('The portal could not start:', err instanceof Error ? err.message : err);
  if (err instanceof Error && err.stack && process.env.LOG_LEVEL === 'debug') console.error(err.stack);
  process.exit(1);
});
