/**
 * `npm run enrolment-pass -- <upn> --reason "…"`: an enrolment pass issued by the operator, on the
 * machine that runs the portal, for a user who has no device yet.
 *
 * Administration needs a sign-in with a second factor, and an administrator's own account is protected
 * (its devices are another Solution Administrator's to change): the first administrators of a new
 * portal (an empty directory filled over SCIM) could never get a device. This command is their first
 * pass. It needs what the portal itself needs (its configuration and its database), so only the
 * operator can run it; the pass is single-use, lives an hour at most, is audited like any other
 * (actor "operator (command line)") and is printed once, never stored in clear.
 *
 * With the embedded database (PGlite) stop the portal first: PGlite serves one process at a time.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createServices } from '../services.js';

const OPERATOR = 'operator (command line)';
const MAX_LIFETIME_MINUTES = 60;

class UsageError extends Error {}

function parse(argv: string[]): { upn: string; reason: string; minutes: number } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { reason: { type: 'string' }, minutes: { type: 'string' } },
  });
  const upn = positionals[0]?.trim().toLowerCase() ?? '';
  if (positionals.length !== 1 || !/^[^\s@]+@[^\s@]+$/.test(upn)) throw new UsageError('Name one user by sign-in name (UPN).');
  const reason = values.reason?.trim() ?? '';
  if (reason.length < 3 || reason.length > 500) throw new UsageError('Say why, in 3 to 500 characters (--reason).');
  const minutes = values.minutes === undefined ? MAX_LIFETIME_MINUTES : Number(values.minutes);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_LIFETIME_MINUTES)
    throw new UsageError(`--minutes must be a whole number from 1 to ${MAX_LIFETIME_MINUTES}.`);
  return { upn, reason, minutes };
}

async function main(): Promise<void> {
  const { upn, reason, minutes } = parse(process.argv.slice(2));
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl, poolSize: 2 } : { pgliteDir: path.join(config.dataDir, 'db') },
  );
  try {
    await migrateToLatest(database.db);
    const services = createServices(config, database);
    try {
      if (!(await services.directory.find(upn)))
        throw new Error(`${upn} is not in the portal's directory: provision the user first (SCIM, or a first sign-in).`);
      if ((await services.mfa.listDevices(upn)).length > 0)
        throw new Error(`${upn} already has a device: a pass is for a first device. A Solution Administrator can help them instead.`);
      const { pass, info } = await services.enrolmentPasses.issue(
        { upn: OPERATOR, roles: [], requestId: `cli-${process.pid}`, clientAddress: null, session: 'command line' },
        'operator',
        upn,
        { reason, uses: 1, lifetimeMinutes: minutes },
        { via: 'command line' },
      );
      console.log(
        [
          `Enrolment pass for ${upn} (one use, until ${info.expiresAt}):`,
          '',
          `    ${pass}`,
          '',
          'Give it to them in person or by a channel you trust: it is shown only now. The audit log records that it was issued.',
        ].join('\n'),
      );
    } finally {
      await services.auditVerification.close();
    }
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  if (err instanceof UsageError)
    console.error(`${err.message}\n\nUsage: npm run enrolment-pass -- <upn> --reason "why" [--minutes 1-${MAX_LIFETIME_MINUTES}]`);
  else console.error(err instanceof ConfigError || err instanceof Error ? err.message : String(err));
  process.exit(err instanceof UsageError ? 2 : 1);
});
