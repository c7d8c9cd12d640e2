import { CompiledQuery, sql, type Kysely, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import type { DatabaseHandle } from '../src/db/database.js';
import { reportsRepository } from '../src/modules/admin/reports/reports.repository.js';
import { unitsRepository } from '../src/modules/admin/units/units.repository.js';
import { createTestDatabase } from './database.js';

/**
 * Administrative units at organisation scale, checked by what PostgreSQL does rather than by timings:
 * with 100,000 people in the directory, 20,000 of them in 200 directory groups, 50 units of a few
 * hundred people and one of all 20,000, a scoped
 * helpdesk member's search, the scope checks of every request and a unit's reports go through indexes.
 * Two ways: as the planner chooses from the tables' statistics (no whole-table read of a large table),
 * and with sequential scans disabled (an index exists for every step), like test/scale.int.test.ts.
 * Real PostgreSQL only (TEST_DATABASE_URL, the server-pg project): PGlite's planner is the same code,
 * but 100,000 rows take it minutes to load.
 */

const onPostgres = Boolean(inject('pgTemplateDatabase'));
const PEOPLE = 100_000;
const LARGE_TABLES = ['directory_user', 'scim_user', 'scim_group_member', 'mfa_user', 'mfa_device', 'mfa_bypass_code'];

/** A Kysely plugin that records every statement sent through it, unchanged. */
const recorder = (nodes: RootOperationNode[]): KyselyPlugin => ({
  transformQuery: ({ node }) => (nodes.push(node), node),
  transformResult: async ({ result }) => result,
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

/** The plan of the first statement `run` sends (EXPLAIN, JSON); `seqscan: false` disables sequential scans. */
async function planOf(db: Kysely<Database>, run: (spy: Kysely<Database>) => Promise<unknown>, opts: { seqscan: boolean }) {
  const recorded: RootOperationNode[] = [];
  await run(db.withPlugin(recorder(recorded)));
  const compiled = db.getExecutor().compileQuery(recorded[0]!, { queryId: 'explain' } as never);
  return db.transaction().execute(async (trx) => {
    if (!opts.seqscan) await sql`set local enable_seqscan = off`.execute(trx);
    const res = await trx.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
    );
    const nodes = nodesOf(res.rows[0]!['QUERY PLAN'][0]!.Plan);
    return {
      text: JSON.stringify(nodes.map((n) => [n['Node Type'], n['Relation Name'] ?? '', n['Index Name'] ?? ''])),
      indexes: nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])),
      seqScans: nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'] ?? ''),
    };
  });
}

describe.skipIf(!onPostgres)('administrative units at 100,000 people (real PostgreSQL only: the server-pg project)', () => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let unit: string;
  let wide: string;
  let twoUnits: string[];
  const member = 'person000005@scale.example';

  beforeAll(async () => {
    handle = await createTestDatabase();
    db = handle.db;
    // Names as a directory holds them: many people share a surname, every sign-in name is unique.
    await sql`insert into directory_user (upn, display_name, email, roles, source)
      select format('person%s@scale.example', lpad(i::text, 6, '0')),
             format('Person %s %s', i, (array['Smith', 'Jones', 'Taylor', 'Brown', 'Wilson', 'Evans', 'Thomas', 'Roberts'])[1 + i % 8] || (i % 97)),
             format('person%s@scale.example', lpad(i::text, 6, '0')), '{}', 'scim'
      from generate_series(1, ${PEOPLE}) i`.execute(db);
    await sql`insert into mfa_user (username, email, real_name, status)
      select upn, email, display_name, 'active' from directory_user where upn like 'person%'`.execute(db);
    // Every fifth person is provisioned by SCIM into one of 200 groups.
    await sql`insert into scim_user (user_name, emails) select upn, '[]' from directory_user where upn like 'person%' and right(split_part(upn, '@', 1), 1) in ('0', '5')`.execute(
      db,
    );
    await sql`insert into scim_group (display_name) select format('Group %s', g) from generate_series(1, 200) g`.execute(db);
    await sql`insert into scim_group_member (group_id, user_id)
      select g.id, u.id from scim_user u
      join scim_group g on g.display_name = format('Group %s', 1 + abs(hashtext(u.user_name)) % 200)`.execute(db);
    // 50 units: two groups and 20 people each; a helpdesk member for each, in person and through a group.
    await sql`insert into admin_unit (name, created_by) select format('Unit %s', n), 'admin@example.com' from generate_series(1, 50) n`.execute(
      db,
    );
    await sql`insert into admin_unit_group (unit_id, group_id)
      select u.id, g.id from admin_unit u join scim_group g
        on g.display_name in (format('Group %s', split_part(u.name, ' ', 2)::int * 2), format('Group %s', split_part(u.name, ' ', 2)::int * 2 - 1))`.execute(
      db,
    );
    await sql`insert into admin_unit_person (unit_id, upn)
      select u.id, format('person%s@scale.example', lpad((split_part(u.name, ' ', 2)::int * 1000 + k)::text, 6, '0'))
      from admin_unit u, generate_series(1, 20) k`.execute(db);
    await sql`insert into admin_unit_helpdesk_person (unit_id, upn)
      select u.id, format('person%s@scale.example', lpad((90000 + split_part(u.name, ' ', 2)::int)::text, 6, '0')) from admin_unit u`.execute(
      db,
    );
    await sql`insert into admin_unit_helpdesk_group (unit_id, group_id)
      select u.id, g.id from admin_unit u join scim_group g on g.display_name = format('Group %s', 150 + split_part(u.name, ' ', 2)::int)`.execute(
      db,
    );
    // And one unit of every group: a fifth of the organisation.
    await sql`insert into admin_unit (name, created_by) values ('Everyone in a group', 'admin@example.com')`.execute(db);
    await sql`insert into admin_unit_group (unit_id, group_id)
      select u.id, g.id from admin_unit u, scim_group g where u.name = 'Everyone in a group'`.execute(db);
    await sql`analyze`.execute(db);
    const units = await db.selectFrom('admin_unit').select(['id', 'name']).orderBy('name').execute();
    unit = units.find((u) => u.name === 'Unit 3')!.id;
    wide = units.find((u) => u.name === 'Everyone in a group')!.id;
    twoUnits = units.filter((u) => u.name === 'Unit 3' || u.name === 'Unit 7').map((u) => u.id);
    await db.insertInto('admin_unit_person').values({ unit_id: unit, upn: member }).execute();
  }, 300_000);
  afterAll(async () => handle?.close());

  it('holds what it says: 100,000 people, a unit of a few hundred', async () => {
    const n = await db
      .selectFrom('directory_user')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBeGreaterThanOrEqual(PEOPLE);
    const found = await unitsRepository(db).searchMembers([unit], '', null, 1000);
    expect(found.length).toBeGreaterThan(100);
    expect(found.length).toBeLessThan(1000);
  });

  // The planner starts from the units' members (by the membership indexes, then the directory by
  // primary key) or from the search's own index: either way, never the directory whole. For the unit of
  // every group it may read the group memberships whole, as it holds every one of them.
  const DIRECTORY_BY_INDEX = /\["(Index Scan|Index Only Scan|Bitmap Heap Scan)","directory_user",/;
  it.each([
    ['part of a name (trigrams)', 'smith'],
    ['the first letters (prefixes)', 'pe'],
    ['everyone in scope, by sign-in name', ''],
  ])("searches a unit's people by %s through indexes, never reading the directory whole", async (_name, q) => {
    for (const scope of [twoUnits, [wide]]) {
      const run = (spy: Kysely<Database>) => unitsRepository(spy).searchMembers(scope, q, null, 21);
      const planned = await planOf(db, run, { seqscan: true });
      const mayReadWhole = scope[0] === wide ? ['scim_group_member', 'scim_user'] : [];
      expect(
        planned.seqScans.filter((t) => LARGE_TABLES.includes(t) && !mayReadWhole.includes(t)),
        planned.text,
      ).toEqual([]);
      const forced = await planOf(db, run, { seqscan: false });
      expect(forced.seqScans, forced.text).toEqual([]);
      expect(forced.text).toMatch(DIRECTORY_BY_INDEX);
      // And the answer is right: only the units' people.
      const rows = await run(db);
      const held = new Set((await unitsRepository(db).searchMembers(scope, '', null, 50_000)).map((r) => r.upn));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => held.has(r.upn))).toBe(true);
    }
  });

  it.each([
    ['the units a helpdesk member serves', (spy: Kysely<Database>) => unitsRepository(spy).unitsServedBy('person090003@scale.example')],
    ['which units hold a person', (spy: Kysely<Database>) => unitsRepository(spy).unitsHolding(member, twoUnits)],
  ])('reads %s (every request of a scoped member) through indexes', async (_name, run) => {
    for (const seqscan of [true, false]) {
      const plan = await planOf(db, run, { seqscan });
      expect(
        plan.seqScans.filter((t) => (seqscan ? LARGE_TABLES.includes(t) : true)),
        plan.text,
      ).toEqual([]);
    }
    expect((await unitsRepository(db).unitsHolding(member, twoUnits)).map((u) => u.id)).toEqual([unit]);
  });

  it.each([
    ['staff without a device', (spy: Kysely<Database>) => reportsRepository(spy, { within: twoUnits }).withoutFactor(null, 51)],
    [
      'locked or disabled accounts',
      (spy: Kysely<Database>) => reportsRepository(spy, { within: twoUnits }).lockedBuiltin(null, 51, new Date()),
    ],
    [
      'the figures and totals',
      (spy: Kysely<Database>) => reportsRepository(spy, { within: twoUnits }).builtinFiguresWithTotals(new Date(), new Date()),
    ],
  ])("reads a unit's report of %s without reading the organisation whole", async (_name, run) => {
    const plan = await planOf(db, run, { seqscan: true });
    expect(
      plan.seqScans.filter((t) => t === 'directory_user' || t === 'scim_user' || t === 'scim_group_member'),
      plan.text,
    ).toEqual([]);
  });
});
