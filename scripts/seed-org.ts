/**
 * `npm run seed:org -- --users 100000 --events 1000000`: fills the configured database (PGlite in
 * DATA_DIR/db, or DATABASE_URL) with a realistic organisation: see apps/server/src/demo/org-seed.ts.
 * Run it again to grow the data set. Stop the portal first when it runs on PGlite (one process owns
 * the data directory).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { seedDemoStaff } from '../apps/server/src/demo/seed.js';
import { seedOrganisation, settleOrganisationTables } from '../apps/server/src/demo/org-seed.js';
import { loadMfaKeys } from '../apps/server/src/mfa/mfa-keys.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000' },
    events: { type: 'string', default: '10000' },
    password: { type: 'string' },
  },
});
const count = (name: string, v: string | undefined) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, 0 or more (got ${v})`);
  return n;
};
const users = count('users', values.users);
const events = count('events', values.events);

const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl ? { url: config.databaseUrl, poolSize: 2 } : { pgliteDir: path.join(config.dataDir, 'db') },
);
const t0 = performance.now();
try {
  await migrateToLatest(database.db);
  if (config.idp.mode === 'embedded') await seedDemoStaff(database.db, { password: config.idp.demoPassword });
  const password = values.password ?? (config.idp.mode === 'embedded' ? config.idp.demoPassword : 'not-for-sign-in');
  let lastReport = 0;
  const result = await seedOrganisation(database.db, {
    users,
    events,
    password,
    box: loadMfaKeys(config).box,
    onProgress: (what, done, total) => {
      if (done === total || performance.now() - lastReport > 2000) {
        lastReport = performance.now();
        console.log(
          `  ${what}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
        );
      }
    },
  });
  if (users > 0 || events > 0) await settleOrganisationTables(database.db);
  console.log(
    `seed:org added ${result.usersAdded.toLocaleString('en')} users and ${result.eventsAdded.toLocaleString('en')} audit events in ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s (${database.kind}); now ${result.usersTotal.toLocaleString('en')} users, ` +
      `${result.eventsTotal.toLocaleString('en')} events. Seeded staff share the password "${password}".`,
  );
} finally {
  await database.close();
}
