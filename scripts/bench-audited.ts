/**
 * Audited changes per second (part of `npm run bench`, `--only audited`; alone: `npm run bench:audited`):
 * what the audit log's hash chain costs a change under concurrency.
 *
 * The change is a device rename through the self-service layer (`devices.renameDevice`: the account
 * check and the update, in its unit of work), `concurrency` users at a time, each renaming a device of
 * their own. The figure runs it as the portal does, with its audit append (the chain head locked, the
 * event hashed and inserted, the head moved, the notification hook) in the same transaction; the
 * reference is the same service built from the same collaborators with an audit log whose append does
 * nothing: the same transaction and SQL change, minus the append. Goal: the ratio at least 0.5.
 * The two run in turn, twice each, so a neighbour's load on a shared machine falls on both.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config.js';
import type { DatabaseHandle } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { ORG_DOMAIN } from '../apps/server/src/demo/org-data.js';
import { seedOrganisation } from '../apps/server/src/demo/org-seed.js';
import { loadMfaKeys } from '../apps/server/src/mfa/mfa-keys.js';
import type { ChainedAuditEvent } from '../apps/server/src/modules/audit/audit-chain.js';
import type { AuditService } from '../apps/server/src/modules/audit/audit.service.js';
import type { RequestContext } from '../apps/server/src/modules/common/request-context.js';
import { createDevicesService } from '../apps/server/src/modules/devices/devices.service.js';
import { createServices } from '../apps/server/src/services.js';
import type { Figure } from './bench-browser.js';
import { BENCH_PASSWORD, benchDatabase } from './bench-lib.js';

export interface AuditedChangesOptions {
  database: DatabaseHandle;
  dataDir: string;
  password: string;
  /** Changes in flight at once, one user each (at most 64). */
  concurrency?: number;
  /** Length of each of the four timed runs (two with the append, two without). */
  durationMs?: number;
}

const auditEvents = async (database: DatabaseHandle) =>
  Number((await sql<{ n: string }>`select count(*) as n from audit_event`.execute(database.db)).rows[0]!.n);

export async function auditedChangesBench(opts: AuditedChangesOptions): Promise<Figure[]> {
  const concurrency = Math.min(64, opts.concurrency ?? 16);
  const durationMs = Math.min(60_000, opts.durationMs ?? 5000);
  const { database } = opts;
  const config = loadConfig({ DATA_DIR: opts.dataDir, LOG_LEVEL: 'silent', DEMO_PASSWORD: opts.password, TLS: 'off', NODE_ENV: 'test' });

  // One active member of the organisation per worker, each with a device to rename.
  const owners = () =>
    database.db
      .selectFrom('mfa_user as u')
      .innerJoin('mfa_device as d', 'd.user_id', 'u.id')
      .select(['u.username', 'd.id'])
      .distinctOn('u.username')
      .where('u.status', '=', 'active')
      .where('u.username', 'like', `%@${ORG_DOMAIN}`)
      .orderBy('u.username')
      .limit(concurrency)
      .execute();
  let people = await owners();
  if (people.length < concurrency) {
    await seedOrganisation(database.db, { users: concurrency * 2 + 20, events: 0, password: opts.password, box: loadMfaKeys(config).box });
    people = await owners();
  }
  if (people.length < concurrency) throw new Error(`only ${people.length} active staff with a device; ${concurrency} needed`);

  const services = createServices(config, database);
  // The reference: the same service and collaborators, with an audit log that appends nothing.
  const appendsNothing: AuditService = { ...services.audit, append: async () => ({}) as ChainedAuditEvent };
  const withoutAppend = createDevicesService({
    mfa: services.mfa,
    audit: appendsNothing,
    stepUp: services.stepUp,
    verification: services.verification,
    pushes: services.pushes,
    totpIssuer: config.mfa.totpIssuer,
  });
  const contexts: RequestContext[] = people.map((p, i) => ({
    upn: p.username,
    roles: [],
    requestId: randomUUID(),
    clientAddress: `10.30.0.${i + 1}`,
    session: `bench-${i}`,
    amr: ['pwd', 'mfa'],
  }));

  /** Each worker renames its own user's device over and over for `ms`; changes per second. */
  const run = async (devices: Pick<typeof withoutAppend, 'renameDevice'>, ms: number) => {
    let done = 0;
    let errors = 0;
    let firstError: string | null = null;
    const t0 = performance.now();
    await Promise.all(
      people.map(async (p, i) => {
        for (let n = 0; performance.now() - t0 < ms; n++) {
          try {
            await devices.renameDevice(contexts[i]!, p.id, `Bench device ${n % 100}`);
            done++;
          } catch (err) {
            errors++;
            firstError ??= err instanceof Error ? err.message : String(err);
            if (errors > 100) return;
          }
        }
      }),
    );
    return { done, errors, firstError, seconds: (performance.now() - t0) / 1000 };
  };
  const add = (a: Awaited<ReturnType<typeof run>>, b: Awaited<ReturnType<typeof run>>) => ({
    perSecond: +((a.done + b.done) / (a.seconds + b.seconds)).toFixed(1),
    done: a.done + b.done,
    errors: a.errors + b.errors,
    firstError: a.firstError ?? b.firstError,
    seconds: +(a.seconds + b.seconds).toFixed(2),
  });

  // Warm both (JIT, pool connections), then in turn.
  await run(withoutAppend, Math.min(1000, durationMs));
  await run(services.devices, Math.min(1000, durationMs));
  const eventsBefore = await auditEvents(database);
  const without1 = await run(withoutAppend, durationMs);
  const with1 = await run(services.devices, durationMs);
  const without2 = await run(withoutAppend, durationMs);
  const with2 = await run(services.devices, durationMs);
  const appended = (await auditEvents(database)) - eventsBefore;
  const audited = add(with1, with2);
  const bare = add(without1, without2);
  // Every audited change left exactly one event, and the reference none.
  const eventsMatch = appended === audited.done;
  if (audited.errors || bare.errors || !eventsMatch)
    console.warn(`  audited: ${audited.errors} failed, reference: ${bare.errors} failed; ${appended} events for ${audited.done} changes`);
  return [
    {
      name: `audited changes per second (${database.kind}), ${concurrency} at a time (goal ratio ≥ 0.5)`,
      figure: audited.perSecond,
      unit: '/s',
      reference: bare.perSecond,
      referenceName: 'same change without its audit append',
      extra: { ...audited, reference: bare, eventsAppended: appended, eventsMatch, goalRatio: 0.5, database: database.kind },
    },
  ];
}

// `npm run bench:audited`: PGlite, then PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set.
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? null;
  const durationMs = Math.min(60, Number(process.env.DURATION_S ?? 5)) * 1000;
  const concurrency = Number(process.env.CONCURRENCY ?? 16);
  console.log(`bench: ${os.cpus().length} CPUs, ${concurrency} at a time, ${durationMs / 1000} s per run`);
  for (const which of url ? [null, url] : [null]) {
    const { database, drop } = await benchDatabase(which);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-bench-'));
    try {
      await migrateToLatest(database.db);
      for (const f of await auditedChangesBench({ database, dataDir, password: BENCH_PASSWORD, concurrency, durationMs })) {
        console.log(
          `${f.name}: ${f.figure} ${f.unit} | ${f.referenceName} ${f.reference} ${f.unit} | ratio ${(f.figure / f.reference).toFixed(3)}`,
        );
        console.log(JSON.stringify({ benchmark: f.name, ...f.extra }));
      }
    } finally {
      await database.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
