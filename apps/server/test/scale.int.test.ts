import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql, type Kysely, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminAuditResponseSchema, adminAuditVerificationSchema } from '@mfa-portal/shared';
import type { Database } from '../src/db/schema.js';
import { seedOrganisation } from '../src/demo/org-seed.js';
import { builtinRepository } from '../src/mfa/builtin/builtin.repository.js';
import { createSecretBox } from '../src/lib/secret-box.js';
import { auditRepository } from '../src/modules/audit/audit.repository.js';
import { walkChain } from '../src/modules/audit/chain-verification.js';
import { meTestApp, type MeTestApp } from './me-api.js';
import { directoryRepository } from '../src/modules/directory/directory.repository.js';
import { ADMIN, callAs } from './admin-api.js';
import { createTestDatabase } from './database.js';
import { reportsRepository } from '../src/modules/admin/reports/reports.repository.js';

/**
 * Organisation scale (issue 16), checked by what the database does rather than by timings: the lookups
 * and searches the API runs can use an index (EXPLAIN with sequential scans disabled still picks one),
 * the CSV export holds every matching row, verification checkpoints, and getuserinfo writes nothing
 * when nothing changed.
 */

let m: MeTestApp;
const box = createSecretBox(randomBytes(32), 'ktest');
beforeAll(async () => {
  m = await meTestApp();
  await seedOrganisation(m.db, { users: 200, events: 2600, password: 'org-password', box, eventBatch: 700 });
});
afterAll(async () => m?.close());

/** A Kysely plugin that records every statement sent through it, unchanged. */
const recorder = (nodes: RootOperationNode[]): KyselyPlugin => ({
  transformQuery: ({ node }) => (nodes.push(node), node),
  transformResult: async ({ result }) => result,
});

/** The plan of the first query `run` sends, as EXPLAIN (FORMAT JSON) gives it with sequential scans off. */
async function planOf(
  db: Kysely<Database>,
  run: (spy: Kysely<Database>) => Promise<unknown>,
  opts: { bitmapOnly?: boolean; asPlanned?: boolean } = {},
): Promise<string> {
  const nodes: RootOperationNode[] = [];
  await run(db.withPlugin(recorder(nodes)));
  const compiled = db.getExecutor().compileQuery(nodes[0]!, { queryId: 'explain' } as never);
  return db.transaction().execute(async (trx) => {
    // asPlanned: the planner's own choice, from the table's statistics.
    if (!opts.asPlanned) await sql`set local enable_seqscan = off`.execute(trx);
    // A search may also walk the username index in order and filter (cheap for common words, and what a
    // small table prefers): without plain index scans, what is left is the index that can match.
    if (opts.bitmapOnly) await sql`set local enable_indexscan = off`.execute(trx);
    const res = await trx.executeQuery<{ 'QUERY PLAN': unknown }>(
      CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
    );
    return JSON.stringify(res.rows[0]!['QUERY PLAN']);
  });
}
const indexesIn = (plan: string) => [...plan.matchAll(/"Index Name":"([^"]+)"/g)].map((x) => x[1]);

describe('indexes behind every lookup', () => {
  it('finds a user by sign-in name, whatever its case, through lower(username)', async () => {
    const plan = await planOf(m.db, (db) => builtinRepository(db).findUserByUsername('BOB@Example.com'));
    // Either index on lower(username): the plain one, or the prefix one of 0016, which serves equality
    // too (PGlite's C collation makes the two alike, and its planner may take either).
    expect(
      indexesIn(plan).some((i) => i === 'mfa_user_username_lower_idx' || i === 'mfa_user_prefix_0_idx'),
      plan,
    ).toBe(true);
    expect(plan).not.toContain('"Seq Scan"');
  });

  it('searches users by any part of the name, sign-in name or e-mail through the trigram index', async () => {
    const plan = await planOf(m.db, (db) => builtinRepository(db).searchUsers('mith', null, 21), { bitmapOnly: true });
    expect(indexesIn(plan)).toContain('mfa_user_search_trgm_idx');
    const dirPlan = await planOf(m.db, (db) => directoryRepository(db).search('mith', null, 21), { bitmapOnly: true });
    expect(indexesIn(dirPlan)).toContain('directory_user_search_trgm_idx');
  });

  it('searches by one or two letters through the prefix indexes (no trigram to look up), never the whole table', async () => {
    const plan = await planOf(m.db, (db) => builtinRepository(db).searchUsers('zq', null, 21), { bitmapOnly: true });
    expect(indexesIn(plan).sort()).toEqual([
      'mfa_user_prefix_0_idx',
      'mfa_user_prefix_1_idx',
      'mfa_user_prefix_2_idx',
      'mfa_user_prefix_3_idx',
    ]);
    expect(plan).not.toContain('"Seq Scan"');
    const dirPlan = await planOf(m.db, (db) => directoryRepository(db).search('Z', null, 21), { bitmapOnly: true });
    expect(indexesIn(dirPlan).sort()).toEqual([
      'directory_user_prefix_0_idx',
      'directory_user_prefix_1_idx',
      'directory_user_prefix_2_idx',
      'directory_user_prefix_3_idx',
    ]);
    expect(dirPlan).not.toContain('"Seq Scan"');
  });

  it.each([
    ['action', { action: 'mfa.verify' }, 'audit_event_action_idx'],
    ['action prefix', { action: 'admin.user.*' }, 'audit_event_action_idx'],
    ['outcome', { outcome: 'failure' as const }, 'audit_event_outcome_idx'],
    ['date', { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-01-02T00:00:00Z') }, 'audit_event_occurred_at_idx'],
  ])('filters the audit log by %s through an index', async (_name, filter, index) => {
    const plan = await planOf(m.db, (db) => auditRepository(db).search(filter, null, 51));
    expect(indexesIn(plan)).toContain(index);
    expect(plan).not.toContain('"Seq Scan"');
  });

  it.each([
    ['part of the actor', { actorLike: 'Bob@Exam' }, 'audit_event_actor_trgm_idx'],
    ['part of the target', { targetLike: 'ob@example' }, 'audit_event_target_trgm_idx'],
    ['the start of the actor (one or two letters)', { actorLike: 'b' }, 'audit_event_actor_prefix_idx'],
    ['the start of the target (one or two letters)', { targetLike: 'bo' }, 'audit_event_target_prefix_idx'],
    ['the whole actor (the rules)', { actor: 'Bob@Example.com' }, 'audit_event_actor_prefix_idx'],
    ['the whole target (the rules)', { target: 'bob@example.com' }, 'audit_event_target_prefix_idx'],
  ])('searches the audit log by %s through its index, never the whole log', async (_name, filter, index) => {
    const plan = await planOf(m.db, (db) => auditRepository(db).search(filter, null, 51), { bitmapOnly: true });
    expect(indexesIn(plan)).toContain(index);
    expect(plan).not.toContain('"Seq Scan"');
  });
});

describe('indexes behind every report (issue 19)', () => {
  const now = new Date();
  const cursor = { at: new Date('2026-01-01T00:00:00Z'), id: '00000000-0000-4000-8000-000000000000' };
  it.each([
    [
      'locked or disabled accounts (builtin)',
      (db: Kysely<Database>) => reportsRepository(db).lockedBuiltin('m', 51, now),
      'mfa_user_attention_idx',
    ],
    [
      'locked or disabled accounts (directory, Duo)',
      (db: Kysely<Database>) => reportsRepository(db).lockedFromDirectory(null, 51),
      'directory_user_attention_idx',
    ],
    [
      'stale devices',
      (db: Kysely<Database>) => reportsRepository(db).staleDevices(new Date(now.getTime() - 90 * 86_400_000), cursor, 51),
      'mfa_device_last_use_idx',
    ],
    [
      'bypass codes in force',
      (db: Kysely<Database>) => reportsRepository(db).bypassCodesInForce(now, cursor, 51),
      'mfa_bypass_code_in_force_idx',
    ],
    ['staff without a device', (db: Kysely<Database>) => reportsRepository(db).withoutFactor('m', 51), 'directory_user_pkey'],
    ['the coverage history', (db: Kysely<Database>) => reportsRepository(db).snapshots('2026-01-01', '2026-01-31'), 'report_snapshot_pkey'],
  ])('reads %s through an index, never a sequential scan', async (_name, run, index) => {
    const plan = await planOf(m.db, run);
    expect(indexesIn(plan)).toContain(index);
    expect(plan).not.toContain('"Seq Scan"');
  });

  it("counts the lists' totals beside the figures through the lists' own indexes", async () => {
    const plan = await planOf(m.db, (db) => reportsRepository(db).builtinFiguresWithTotals(now, new Date(now.getTime() - 90 * 86_400_000)));
    expect(indexesIn(plan)).toEqual(
      expect.arrayContaining(['mfa_user_attention_idx', 'mfa_device_last_use_idx', 'mfa_bypass_code_in_force_idx']),
    );
  });

  it('finds whether a member of staff has a device through lower(username) and the device index', async () => {
    const plan = await planOf(m.db, (db) => reportsRepository(db).withoutFactor(null, 51));
    expect(indexesIn(plan)).toEqual(expect.arrayContaining(['mfa_user_username_lower_idx', 'mfa_device_user_idx']));
    expect(plan).not.toContain('"Seq Scan"');
  });

  it('figures match a count by hand over the seeded organisation', async () => {
    const f = await reportsRepository(m.db).builtinFigures(now);
    const staff = Number(
      (
        await m.db
          .selectFrom('directory_user')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const covered = Number(
      (
        await sql<{ n: number }>`select count(distinct lower(u.username)) as n from mfa_user u join mfa_device d on d.user_id = u.id
        join directory_user s on s.upn = lower(u.username)`.execute(m.db)
      ).rows[0]!.n,
    );
    expect(f.staff).toBe(staff);
    expect(f.covered).toBe(covered);
    expect(f.staff).toBeGreaterThan(200);
  });
});

describe('GET /api/admin/audit.csv', () => {
  it('streams every matching row, more than any page, with no cap by default', async () => {
    const total = Number(
      (
        await m.db
          .selectFrom('audit_event')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(total).toBeGreaterThan(2500);
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/audit.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['x-export-row-limit']).toBeUndefined();
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(/^"id","occurredAt"/);
    // Every event (the GET itself adds none), newest first, each once.
    const ids = lines.slice(1).map((l) => Number(JSON.parse(l.split(',')[0]!)));
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('exports exactly the rows a filter matches', async () => {
    const failures = Number(
      (
        await m.db
          .selectFrom('audit_event')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('outcome', '=', 'failure')
          .executeTakeFirstOrThrow()
      ).n,
    );
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/audit.csv?outcome=failure');
    expect(res.body.split('\r\n').filter(Boolean)).toHaveLength(failures + 1);
  });
});

describe('GET /api/admin/audit.csv with AUDIT_CSV_MAX_ROWS', () => {
  let capped: MeTestApp;
  beforeAll(async () => {
    capped = await meTestApp({ AUDIT_CSV_MAX_ROWS: '5' });
    // Denied calls are audited: eight events.
    for (let i = 0; i < 8; i++) await callAs(capped, { upn: 'bob@example.com', roles: [] }, 'GET', '/api/admin/audit');
  });
  afterAll(async () => capped?.close());

  it('says the cap in a header and cuts the file with a last line saying so', async () => {
    const res = await callAs(capped, ADMIN, 'GET', '/api/admin/audit.csv');
    expect(res.headers['x-export-row-limit']).toBe('5');
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(1 + 5 + 1);
    expect(lines.at(-1)).toContain('cut at 5 rows');
  });
});

describe('hash-chain verification with checkpoints', () => {
  const tamper = async (id: number) => {
    await m.db.transaction().execute(async (trx) => {
      await sql`alter table audit_event disable trigger all`.execute(trx);
      await sql`update audit_event set outcome = 'failure', reason = 'edited' where id = ${id}`.execute(trx);
      await sql`alter table audit_event enable trigger all`.execute(trx);
    });
  };

  it('runs off the request: 202 with a run to poll, then its progress and verdict', async () => {
    const started = await callAs(m, ADMIN, 'POST', '/api/admin/audit/verifications', { mode: 'full' });
    expect(started.statusCode, started.body).toBe(202);
    let run = adminAuditVerificationSchema.parse(started.json());
    expect(run.mode).toBe('full');
    for (let i = 0; i < 600 && run.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      run = adminAuditVerificationSchema.parse((await callAs(m, ADMIN, 'GET', `/api/admin/audit/verifications/${run.id}`)).json());
    }
    expect(run.state).toBe('done');
    expect(run.result).toMatchObject({ ok: true });
    expect(run.checked).toBe(run.total);
    expect(run.total).toBeGreaterThanOrEqual(2600);
    // The worker thread compiles its modules (tsx) at its start: slow on a loaded machine.
  }, 120_000);

  it('re-checks only what is new after a checkpoint, and finds an edit made after it', async () => {
    const first = await walkChain(m.db, { mode: 'full', batchSize: 500 });
    expect(first.ok).toBe(true);
    const checkpoint = await m.db.selectFrom('audit_checkpoint').selectAll().orderBy('last_event_id', 'desc').executeTakeFirstOrThrow();
    // New events after the checkpoint.
    for (let i = 0; i < 5; i++) await callAs(m, ADMIN, 'GET', '/api/admin/audit?limit=1');
    await seedOrganisation(m.db, { users: 0, events: 40, password: 'org-password', box });

    let startedAt = -1;
    const again = await walkChain(m.db, {
      mode: 'incremental',
      onProgress: (checked) => {
        if (startedAt < 0) startedAt = checked;
      },
    });
    expect(again.ok).toBe(true);
    // It started at the checkpoint: the events before it were not read again.
    expect(startedAt).toBe(Number(checkpoint.event_count));

    const newer = await m.db
      .selectFrom('audit_event')
      .select('id')
      .where('id', '>', Number(checkpoint.last_event_id))
      .orderBy('id')
      .limit(1)
      .offset(10)
      .executeTakeFirstOrThrow();
    const latest = await m.db.selectFrom('audit_checkpoint').selectAll().orderBy('last_event_id', 'desc').executeTakeFirstOrThrow();
    // Edit an event after the first checkpoint but before the latest: the latest incremental run
    // starts after it, a full run does not; and the edit of an event after the latest is found.
    const last = await m.db.selectFrom('audit_event').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await seedOrganisation(m.db, { users: 0, events: 10, password: 'org-password', box });
    const afterLatest = await m.db
      .selectFrom('audit_event')
      .select('id')
      .where('id', '>', Number(last.id))
      .orderBy('id')
      .limit(1)
      .offset(3)
      .executeTakeFirstOrThrow();
    await tamper(Number(afterLatest.id));
    const found = await walkChain(m.db, { mode: 'incremental' });
    expect(found).toMatchObject({ ok: false, id: String(afterLatest.id), reason: 'hash_mismatch' });
    expect(Number(latest.last_event_id)).toBeGreaterThan(Number(newer.id));

    await tamper(Number(newer.id));
    const full = await walkChain(m.db, { mode: 'full' });
    expect(full).toMatchObject({ ok: false, id: String(newer.id), reason: 'hash_mismatch' });
  });
});

describe('GET /account/getuserinfo writes nothing when nothing changed', () => {
  it('leaves the directory row untouched on a repeated call', async () => {
    const call = () => callAs(m, { upn: 'carol@example.com', roles: [] }, 'GET', '/account/getuserinfo?userid=carol@example.com');
    expect((await call()).statusCode).toBe(200);
    const version = () =>
      sql<{ xmin: string; last_seen_at: Date }>`select xmin::text as xmin, last_seen_at from directory_user where upn = 'carol@example.com'`
        .execute(m.db)
        .then((r) => r.rows[0]!);
    const before = await version();
    expect((await call()).statusCode).toBe(200);
    expect((await call()).statusCode).toBe(200);
    expect(await version()).toEqual(before);
    // A change of roles is written at once.
    expect(
      (
        await callAs(
          m,
          { upn: 'carol@example.com', roles: ['Helpdesk Administrator'] },
          'GET',
          '/account/getuserinfo?userid=carol@example.com',
        )
      ).statusCode,
    ).toBe(200);
    expect((await version()).xmin).not.toBe(before.xmin);
  });

  /** The statements getuserinfo sends for a first call, a reload (the same token) and a new token of the same user. */
  async function statementsOfReloads(env: Record<string, string>) {
    // Every statement the server sends, counted by a Kysely plugin on the app's own database.
    const statements: RootOperationNode[] = [];
    const database = await createTestDatabase();
    const counted = await meTestApp(env, { database: { ...database, db: database.db.withPlugin(recorder(statements)) } });
    try {
      const token = await counted.token('alice@example.com');
      const call = (bearer: string) =>
        counted.t.app.inject({
          method: 'GET',
          url: '/account/getuserinfo?userid=alice@example.com',
          headers: { authorization: `Bearer ${bearer}` },
        });
      expect((await call(token)).statusCode).toBe(200);
      statements.length = 0;
      const again = await call(token);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ user: { upn: 'alice@example.com' }, mfa: { status: expect.any(String) } });
      const reload = statements.length;
      // A new token is recorded once more (its roles are the latest word).
      statements.length = 0;
      await new Promise((resolve) => setTimeout(resolve, 1100)); // a later issue time (seconds)
      const fresh = await counted.token('alice@example.com', ['Helpdesk Administrator']);
      const res = await call(fresh);
      expect(res.statusCode).toBe(200);
      const newToken = statements.length;
      expect((await directoryRepository(database.db).find('alice@example.com'))?.roles).toEqual(['Helpdesk Administrator']);
      return { reload, newToken };
    } finally {
      await counted.close();
      await database.close();
    }
  }

  it('answers a reload (the same token) from memory, and a new token with one write', async () => {
    // The revocation and the MFA data are kept while the change feed listens (db/change-feed.int.test.ts).
    // The new token carries a role: the directory is asked whether it still gives it (one read), then
    // what the token showed is recorded (one write).
    expect(await statementsOfReloads({})).toEqual({ reload: 0, newToken: 2 });
  });

  it('without the read caches (READ_CACHE=false), in two round trips: the revocation check and the MFA data', async () => {
    expect(await statementsOfReloads({ READ_CACHE: 'false' })).toEqual({ reload: 2, newToken: 4 });
  });
});

describe.runIf(Boolean(inject('pgTemplateDatabase')))('the audit log searched by part of a name in a large log (PostgreSQL)', () => {
  beforeAll(async () => {
    await seedOrganisation(m.db, { users: 2000, events: 40_000, password: 'org-password', box, eventBatch: 10_000 });
    await sql`analyze audit_event`.execute(m.db);
  }, 300_000);

  /**
   * Someone with few events whose name the statistics do not hold: for a common word (a given name
   * many staff share) the planner rightly walks the newest events and stops at 51, so the index is
   * the subject only where it matters, a rare name, and the choice of that name must not depend on
   * which rows ANALYZE happened to sample.
   */
  async function rareName(column: 'target_upn' | 'actor_upn', index: string) {
    const stats = await sql<{ words: string | null }>`
      select coalesce(most_common_vals::text, '') || coalesce(histogram_bounds::text, '') as words
      from pg_stats where tablename = ${index}`.execute(m.db);
    const sampled = stats.rows.map((r) => r.words ?? '').join(' ');
    const people = await sql<{ name: string; n: string }>`
      select lower(${sql.ref(column)}) as name, count(*)::text as n from audit_event
      group by 1 order by count(*), 1`.execute(m.db);
    const rare = people.rows.map((p) => ({ ...p, word: p.name.split('@')[0]! })).find((p) => !sampled.includes(p.word));
    expect(rare, 'someone whose name the statistics do not hold').toBeDefined();
    return { word: rare!.word, upn: rare!.name, events: Number(rare!.n) };
  }

  it('is planned through the trigram index by PostgreSQL itself for a rare name, with no setting forced', async () => {
    const total = Number((await sql<{ n: string }>`select count(*) as n from audit_event`.execute(m.db)).rows[0]!.n);
    expect(total).toBeGreaterThan(40_000);
    const grace = await callAs(m, ADMIN, 'GET', '/api/admin/audit?target=grace&limit=50');
    const events = adminAuditResponseSchema.parse(grace.json()).events;
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.targetUpn === 'grace@example.com')).toBe(true);

    const target = await rareName('target_upn', 'audit_event_target_trgm_idx');
    const actor = await rareName('actor_upn', 'audit_event_actor_trgm_idx');
    for (const [filter, index, rare] of [
      [{ targetLike: target.word }, 'audit_event_target_trgm_idx', target],
      [{ actorLike: actor.word }, 'audit_event_actor_trgm_idx', actor],
    ] as const) {
      expect(rare.events).toBeLessThan(total / 100);
      const found = await auditRepository(m.db).search(filter, null, 51);
      expect(found.length).toBeGreaterThan(0);
      const plan = await planOf(m.db, (db) => auditRepository(db).search(filter, null, 51), { asPlanned: true });
      expect(indexesIn(plan), plan).toContain(index);
      expect(plan).not.toContain('"Seq Scan"');
    }
  });
});
