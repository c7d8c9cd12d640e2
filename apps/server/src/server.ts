import path from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type AppConfig } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { seedDemoStaff } from './demo/seed.js';
import { loadTls } from './lib/tls.js';

const SHUTDOWN_GRACE_MS = 10_000;

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

  const database: DatabaseHandle = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl, poolSize: config.databasePoolSize } : { pgliteDir: path.join(config.dataDir, 'db') },
  );
  await migrateToLatest(database.db);
  if (config.idp.mode === 'embedded') await seedDemoStaff(database.db, { password: config.idp.demoPassword });

  const tls = await loadTls(config);
  const app = await buildApp({ config, database, https: tls });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  const lines = [
    '',
    `  MFA self-service portal is running at ${config.publicUrl}`,
    `  identity provider: ${config.idp.mode === 'embedded' ? `embedded (${config.idp.issuer})` : `Entra ID tenant ${config.idp.tenantId}`}`,
    `  database: ${database.kind === 'pglite' ? `PGlite in ${path.join(config.dataDir, 'db')}` : 'PostgreSQL'} · MFA provider: ${config.mfaProvider}`,
  ];
  if (config.idp.mode === 'embedded') {
    lines.push(
      `  demo staff: alice@, bob@, helpdesk@, admin@, disabled@, nomfa@example.com — password: ${config.idp.demoPassword}`,
      tls && config.tls.mode === 'self-signed' ? '  the certificate is self-signed: your browser will warn once; accept it to continue.' : '',
    );
  }
  console.log(lines.filter(Boolean).join('\n') + '\n');
}

main().catch((err: unknown) => {
  console.error('The portal could not start:', err instanceof Error ? err.message : err);
  if (err instanceof Error && err.stack && process.env.LOG_LEVEL === 'debug') console.error(err.stack);
  process.exit(1);
});
