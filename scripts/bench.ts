/**
 * `npm run bench`: every benchmark of speed, size and scale, each figure printed beside a reference measured in the
 * same run on the same machine, with the ratio. Bounded in time and count; loopback only.
 *
 *   --users N        staff at the large size (default 100000; the small size is 100)
 *   --events M       audit events for export and verification (default 1000000)
 *   --duration S     seconds of load per throughput figure (default 5)
 *   --connections C  concurrent keep-alive connections (default 100)
 *   --only LIST      api,audit,lighthouse,start,push,signins,audited (default: all)
 *   --pushes N       pushes for the push latency figure (default 100, at most 500)
 *   --signins N      sign-ins for the sign-ins per second figure, each a different user (default 200, at most 2000)
 *
 * Database: BENCH_DATABASE_URL (a PostgreSQL role that may create databases: a throw-away database is
 * made and dropped), else PGlite in memory. Servers listen on loopback: BENCH_PORT (default 9443; the
 * start and Lighthouse figures); the portal under load and bare Fastify on ports the system picks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { importJWK, SignJWT } from 'jose';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { seedOrganisation, settleOrganisationTables } from '../apps/server/src/demo/org-seed.js';
import { seedDemoStaff } from '../apps/server/src/demo/seed.js';
import { scopeValueOf } from '../apps/server/src/auth/token-verifier.js';
import { loadIdpSecrets } from '../apps/server/src/idp/secrets.js';
import { loadMfaKeys } from '../apps/server/src/mfa/mfa-keys.js';
import { createAuditService } from '../apps/server/src/modules/audit/audit.service.js';
import { walkChain } from '../apps/server/src/modules/audit/chain-verification.js';
import { benchDatabase } from './bench-lib.js';
import { load, type LoadResult } from './bench-load.js';
import { lighthouseScores, startTimes } from './bench-browser.js';
import { pushBench } from './bench-push.js';
import { signInRateBench } from './bench-signin-rate.js';
import { auditedChangesBench } from './bench-audited.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    events: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '100' },
    only: { type: 'string', default: 'api,audit,lighthouse,start,push,signins,audited' },
    pushes: { type: 'string', default: '100' },
    signins: { type: 'string', default: '200' },
  },
});
const USERS = Number(values.users);
const EVENTS = Number(values.events);
const DURATION_MS = Math.min(60, Number(values.duration)) * 1000;
const CONNECTIONS = Math.min(500, Number(values.connections));
const ONLY = new Set(values.only!.split(','));
const PASSWORD = 'portal-demo-bench';
const results: Record<string, unknown>[] = [];

const ratio = (a: number, b: number) => (b > 0 ? +(a / b).toFixed(3) : null);
function report(name: string, figure: number, unit: string, reference: number, referenceName: string, extra: Record<string, unknown> = {}) {
  const r = ratio(figure, reference);
  console.log(`${name.padEnd(44)} ${String(figure).padStart(10)} ${unit.padEnd(6)} | ${referenceName} ${reference} ${unit} | ratio ${r}`);
  results.push({ benchmark: name, figure, unit, reference, referenceName, ratio: r, ...extra });
}
const loadSummary = (r: LoadResult) => ({ p50: r.p50, p95: r.p95, p99: r.p99, errors: r.errors, firstError: r.firstError });

async function main() {
  const { database, drop } = await benchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-bench-'));
  const bare = Fastify({ logger: false });
  bare.get('/ping', async () => ({ ok: true }));
  try {
    console.log(`bench: ${database.kind}, ${CONNECTIONS} connections, ${DURATION_MS / 1000} s per figure, ${os.cpus().length} CPUs`);
    await migrateToLatest(database.db);
    await seedDemoStaff(database.db, { password: PASSWORD });
    // Ample verification budgets: the benchmark measures throughput, not the portal's rate limits.
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_PASSWORD: PASSWORD, TLS: 'off', NODE_ENV: 'test' });
    const box = loadMfaKeys(config).box;
    await seedOrganisation(database.db, { users: 88, events: 1000, password: PASSWORD, box });

    const app = await buildApp({ config, database, logger: false });
    // Ports the system picks (loopback): two benchmarks side by side never collide.
    await app.listen({ host: '127.0.0.1', port: 0 });
    await bare.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    const barePort = (bare.server.address() as AddressInfo).port;
    // The same portal without its per-user read caches: what a call costs when nothing is kept.
    const uncachedApp = await buildApp({ config: { ...config, readCache: false }, database, logger: false });
    await uncachedApp.listen({ host: '127.0.0.1', port: 0 });
    const uncachedPort = (uncachedApp.server.address() as AddressInfo).port;

    const jwk = (await loadIdpSecrets(database.db)).signingKeys[0]!;
    const key = await importJWK(jwk, 'RS256');
    if (config.idp.mode !== 'embedded') throw new Error('bench runs the embedded mode');
    const { issuer, audience } = config.idp;
    const token = (upn: string, roles: string[]) =>
      // The delegated scope the API requires (`scp`), a second factor (administration needs one) and a
      // sign-in session, as the embedded provider writes them.
      new SignJWT({
        upn,
        preferred_username: upn,
        email: upn,
        roles,
        amr: ['pwd', 'mfa'],
        sid: `bench-${upn}`,
        scp: scopeValueOf(config.idp.scope),
      })
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(`sub-${upn}`)
        .setIssuedAt()
        .setExpirationTime('2h')
        .sign(key);
    const bob = { authorization: `Bearer ${await token('bob@example.com', [])}` };
    const admin = { authorization: `Bearer ${await token('admin@example.com', ['Solution Administrator'])}` };
    const spec = { port, connections: CONNECTIONS, durationMs: DURATION_MS };
    const searches = ['smith', 'anna', 'mit', 'vorzel', 'lee', 'garcia.m', 'example.com', 'zq', 'rossi', 'pel'].map(
      (q) => `/api/admin/users?q=${encodeURIComponent(q)}&limit=20`,
    );

    const apiRound = async (label: string) => {
      const ref = await load({ ...spec, port: barePort, paths: ['/ping'] });
      const light = await load({ ...spec, paths: ['/settings/APIInfo'] });
      const info = await load({ ...spec, paths: ['/account/getuserinfo?userid=bob@example.com'], headers: bob });
      const uncached = await load({ ...spec, port: uncachedPort, paths: ['/account/getuserinfo?userid=bob@example.com'], headers: bob });
      const search = await load({ ...spec, paths: searches, headers: admin });
      // A service desk's worth of people searching at once: latency, not the server's ceiling.
      const deskSearch = await load({ ...spec, connections: Math.min(10, CONNECTIONS), paths: searches, headers: admin });
      report(`bare Fastify GET /ping`, ref.rps, 'req/s', ref.rps, 'itself', loadSummary(ref));
      report(`GET /settings/APIInfo (${label})`, light.rps, 'req/s', ref.rps, 'bare', loadSummary(light));
      report(`GET /account/getuserinfo (${label})`, info.rps, 'req/s', ref.rps, 'bare', loadSummary(info));
      report(`getuserinfo, READ_CACHE=false (${label})`, uncached.rps, 'req/s', ref.rps, 'bare', loadSummary(uncached));
      report(`admin user search (${label})`, search.rps, 'req/s', ref.rps, 'bare', loadSummary(search));
      report(`admin user search, 10 connections (${label})`, deskSearch.rps, 'req/s', light.rps, 'APIInfo', loadSummary(deskSearch));
      console.log(
        `  latency ms: getuserinfo p50 ${info.p50} p95 ${info.p95} p99 ${info.p99}; ` +
          `without read caches p50 ${uncached.p50} p95 ${uncached.p95} p99 ${uncached.p99}; search p50 ${search.p50} p95 ${search.p95} p99 ${search.p99}; ` +
          `search at 10 connections p50 ${deskSearch.p50} p95 ${deskSearch.p95} p99 ${deskSearch.p99}`,
      );
      report(`getuserinfo vs the light route (${label})`, info.rps, 'req/s', light.rps, 'APIInfo');
      return { ref, info, search };
    };

    let small: Awaited<ReturnType<typeof apiRound>> | undefined;
    if (ONLY.has('api')) small = await apiRound('100 users');
    // Push with number matching: a software phone approves, the waiting browser is told (bench-push.ts).
    if (ONLY.has('push')) {
      const figures = await pushBench({ database, dataDir, password: PASSWORD, token, count: Number(values.pushes) });
      for (const r of figures) report(r.name, r.figure, r.unit, r.reference, r.referenceName, r.extra);
    }

    // Grow to the large organisation (and the audit log).
    const t0 = performance.now();
    const grow = await seedOrganisation(database.db, {
      users: Math.max(0, USERS - 100),
      events: Math.max(0, EVENTS - 1000),
      password: PASSWORD,
      box,
    });
    // As `npm run seed:org` leaves it: vacuumed and analyzed (in the seed's time).
    await settleOrganisationTables(database.db);
    const seedSeconds = (performance.now() - t0) / 1000;
    report(
      `seed:org ${grow.usersTotal} users, ${grow.eventsTotal} events`,
      +seedSeconds.toFixed(1),
      's',
      +seedSeconds.toFixed(1),
      'itself',
    );

    if (ONLY.has('api')) {
      const large = await apiRound(`${USERS} users`);
      if (small) {
        report(`getuserinfo at ${USERS} vs 100 users`, large.info.rps, 'req/s', small.info.rps, '100 users');
        report(`admin search at ${USERS} vs 100 users`, large.search.rps, 'req/s', small.search.rps, '100 users');
      }
      // The change feed: a notification sent through the database and heard by the server's listener
      // (what another instance waits before it drops a changed user's reads), against a plain round trip.
      if (app.changeFeed?.listening) {
        const roundTrips: number[] = [];
        const heard: number[] = [];
        for (let i = 0; i < 200; i++) {
          const a = performance.now();
          await sql`select 1`.execute(database.db);
          roundTrips.push(performance.now() - a);
          const b = performance.now();
          if (!(await app.changeFeed.heard())) throw new Error('the change feed did not hear its marker');
          heard.push(performance.now() - b);
        }
        const pct = (xs: number[], q: number) => +[...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) * q)]!.toFixed(2);
        report('change feed: notification heard, p50', pct(heard, 0.5), 'ms', pct(roundTrips, 0.5), 'select 1', {
          p99: pct(heard, 0.99),
          referenceP99: pct(roundTrips, 0.99),
        });
      }
    }

    // Sign-ins per second against bare password hashes (bench-signin-rate.ts), and audited changes per
    // second against the same change without its audit append (bench-audited.ts), in the grown organisation.
    if (ONLY.has('signins')) {
      const figures = await signInRateBench({ database, dataDir, password: PASSWORD, count: Number(values.signins) });
      for (const r of figures) report(r.name, r.figure, r.unit, r.reference, r.referenceName, r.extra);
    }
    if (ONLY.has('audited')) {
      for (const r of await auditedChangesBench({ database, dataDir, password: PASSWORD, durationMs: DURATION_MS }))
        report(r.name, r.figure, r.unit, r.reference, r.referenceName, r.extra);
    }

    if (ONLY.has('audit')) {
      // Export: the whole log as CSV over HTTP, against reading the same rows with bare SQL pages.
      const rssBefore = process.memoryUsage().rss;
      let peakRss = rssBefore;
      const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
      const e0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/api/admin/audit.csv`, { headers: admin });
      let firstByteMs = 0;
      let bytes = 0;
      let rows = -1; // the header row
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!firstByteMs) firstByteMs = performance.now() - e0;
        bytes += value.length;
        for (const b of value) if (b === 10) rows++;
      }
      const exportMs = performance.now() - e0;
      clearInterval(timer);
      const r0 = performance.now();
      const audit = createAuditService(database.db);
      let sqlRows = 0;
      for await (const page of audit.stream({}, { pageSize: 1000 })) sqlRows += page.length;
      const readMs = performance.now() - r0;
      report(
        `audit CSV export, ${rows} rows`,
        +(exportMs / 1000).toFixed(2),
        's',
        +(readMs / 1000).toFixed(2),
        'keyset read of the same rows',
        {
          rows,
          expectedRows: sqlRows,
          bytes,
          firstByteMs: +firstByteMs.toFixed(1),
          peakRssGrowthMiB: +((peakRss - rssBefore) / 2 ** 20).toFixed(1),
        },
      );
      console.log(
        `  first byte after ${firstByteMs.toFixed(1)} ms; ${rows} rows of ${sqlRows}; process RSS grew ${((peakRss - rssBefore) / 2 ** 20).toFixed(1)} MiB`,
      );

      // Verification: a full walk, then an incremental re-check; getuserinfo throughput during the walk.
      const quiet = await load({ ...spec, paths: ['/account/getuserinfo?userid=bob@example.com'], headers: bob });
      const v0 = performance.now();
      const walking = walkChain(database.db, { mode: 'full' });
      const during = await load({
        ...spec,
        paths: ['/account/getuserinfo?userid=bob@example.com'],
        headers: bob,
        durationMs: Math.min(DURATION_MS, 3000),
        warmupMs: 200,
      });
      const verdict = await walking;
      const fullMs = performance.now() - v0;
      const i0 = performance.now();
      const again = await walkChain(database.db, { mode: 'incremental' });
      const incMs = performance.now() - i0;
      report(
        `chain verification, full (${verdict.ok ? verdict.count : 'BROKEN'} events)`,
        +(fullMs / 1000).toFixed(2),
        's',
        +(readMs / 1000).toFixed(2),
        'keyset read',
      );
      report(
        `chain re-check, incremental (${again.ok ? 'intact' : 'BROKEN'})`,
        +(incMs / 1000).toFixed(3),
        's',
        +(fullMs / 1000).toFixed(2),
        'full walk',
      );
      report(`getuserinfo during verification`, during.rps, 'req/s', quiet.rps, 'without', loadSummary(during));
    }

    await app.close();
    await uncachedApp.close();
    if (ONLY.has('start')) for (const r of await startTimes()) report(r.name, r.figure, r.unit, r.reference, r.referenceName, r.extra);
    if (ONLY.has('lighthouse'))
      for (const r of await lighthouseScores()) report(r.name, r.figure, r.unit, r.reference, r.referenceName, r.extra);
  } finally {
    await bare.close();
    await database.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const out = path.join(process.cwd(), 'bench-results.json');
  fs.writeFileSync(out, `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`);
  console.log(`\nfigures written to ${out}`);
}

await main();
