import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { heldByUnits, unitMembersSql } from '../../../db/admin-unit-members.js';
import { DIRECTORY_PREFIX_KEYS, DIRECTORY_SEARCH_TEXT, userSearchCondition } from '../../../db/search-text.js';
import { containsPattern } from '../../../db/like.js';

/** SQL of administrative units (migration 0024): the units, who they hold, who serves them. No rules here. */

export interface UnitDefinition {
  name: string;
  memberGroups: readonly string[];
  memberPeople: readonly string[];
  helpdeskGroups: readonly string[];
  helpdeskPeople: readonly string[];
}

export interface GroupRow {
  id: string;
  name: string;
  memberCount: number;
}
export interface UnitRow {
  id: string;
  name: string;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
  memberGroups: GroupRow[];
  memberPeople: { upn: string; displayName: string }[];
  memberCount: number;
  helpdeskGroups: GroupRow[];
  helpdeskPeople: { upn: string; displayName: string }[];
}

const toDate = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
const UNIT_OF_CALLER_GROUP = sql<string>`lower(su.user_name)`;

export function unitsRepository(db: Kysely<Database>) {
  /** The units of `ids` with everything they name, by name. */
  async function load(ids: readonly string[] | null): Promise<UnitRow[]> {
    let q = db
      .selectFrom('admin_unit')
      .selectAll()
      .orderBy(sql`lower(name)`);
    if (ids) q = ids.length === 0 ? q.where(sql<boolean>`false`) : q.where('id', 'in', ids);
    const units = await q.execute();
    if (units.length === 0) return [];
    const unitIds = units.map((u) => u.id);
    const groupsOf = (table: 'admin_unit_group' | 'admin_unit_helpdesk_group') =>
      db
        .selectFrom(`${table} as ug` as 'admin_unit_group as ug')
        .innerJoin('scim_group as g', 'g.id', 'ug.group_id')
        .select(['ug.unit_id', 'g.id', 'g.display_name'])
        .select((eb) =>
          eb
            .selectFrom('scim_group_member as gm')
            .select(eb.fn.countAll<string | number>().as('n'))
            .whereRef('gm.group_id', '=', 'g.id')
            .as('member_count'),
        )
        .where('ug.unit_id', 'in', unitIds)
        .orderBy(sql`lower(g.display_name)`)
        .execute();
    const peopleOf = (table: 'admin_unit_person' | 'admin_unit_helpdesk_person') =>
      db
        .selectFrom(`${table} as up` as 'admin_unit_person as up')
        .innerJoin('directory_user as s', 's.upn', 'up.upn')
        .select(['up.unit_id', 's.upn', 's.display_name'])
        .where('up.unit_id', 'in', unitIds)
        .orderBy('s.upn')
        .execute();
    const [memberGroups, memberPeople, helpdeskGroups, helpdeskPeople, counts] = await Promise.all([
      groupsOf('admin_unit_group'),
      peopleOf('admin_unit_person'),
      groupsOf('admin_unit_helpdesk_group'),
      peopleOf('admin_unit_helpdesk_person'),
      Promise.all(
        unitIds.map(async (id) => {
          const r = await sql<{ n: string | number }>`select count(distinct m.upn) as n from (${unitMembersSql([id])}) m`.execute(db);
          return [id, Number(r.rows[0]?.n ?? 0)] as const;
        }),
      ),
    ]);
    const count = new Map(counts);
    const groups = (rows: typeof memberGroups, id: string) =>
      rows.filter((r) => r.unit_id === id).map((r) => ({ id: r.id, name: r.display_name, memberCount: Number(r.member_count ?? 0) }));
    const people = (rows: typeof memberPeople, id: string) =>
      rows.filter((r) => r.unit_id === id).map((r) => ({ upn: r.upn, displayName: r.display_name }));
    return units.map((u) => ({
      id: u.id,
      name: u.name,
      createdBy: u.created_by,
      createdAt: toDate(u.created_at),
      updatedAt: toDate(u.updated_at),
      memberGroups: groups(memberGroups, u.id),
      memberPeople: people(memberPeople, u.id),
      memberCount: count.get(u.id) ?? 0,
      helpdeskGroups: groups(helpdeskGroups, u.id),
      helpdeskPeople: people(helpdeskPeople, u.id),
    }));
  }

  /** Writes what a unit names (after its rows were cleared, or for a new unit). */
  async function writeLinks(unitId: string, d: UnitDefinition) {
    const rows = <K extends string>(key: K, values: readonly string[]) => values.map((v) => ({ unit_id: unitId, [key]: v }));
    if (d.memberGroups.length)
      await db
        .insertInto('admin_unit_group')
        .values(rows('group_id', d.memberGroups) as never)
        .execute();
    if (d.memberPeople.length)
      await db
        .insertInto('admin_unit_person')
        .values(rows('upn', d.memberPeople) as never)
        .execute();
    if (d.helpdeskGroups.length)
      await db
        .insertInto('admin_unit_helpdesk_group')
        .values(rows('group_id', d.helpdeskGroups) as never)
        .execute();
    if (d.helpdeskPeople.length)
      await db
        .insertInto('admin_unit_helpdesk_person')
        .values(rows('upn', d.helpdeskPeople) as never)
        .execute();
  }

  return {
    list: () => load(null),
    find: async (id: string) => (await load([id]))[0] ?? null,

    /** Another unit of that name, whatever its case. */
    async nameTaken(name: string, exceptId: string | null): Promise<boolean> {
      let q = db
        .selectFrom('admin_unit')
        .select('id')
        .where(sql`lower(name)`, '=', name.toLowerCase());
      if (exceptId) q = q.where('id', '<>', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    /** Which of these directory group ids exist. */
    async existingGroups(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.selectFrom('scim_group').select('id').where('id', 'in', ids).execute();
      return new Set(rows.map((r) => r.id));
    },

    /** The directory's people of these sign-in names, with their roles as last seen. */
    async people(upns: readonly string[]): Promise<Map<string, { roles: string[] | null }>> {
      if (upns.length === 0) return new Map();
      const rows = await db.selectFrom('directory_user').select(['upn', 'roles']).where('upn', 'in', upns).execute();
      return new Map(rows.map((r) => [r.upn, { roles: r.roles }]));
    },

    async insert(d: UnitDefinition, createdBy: string, now: Date): Promise<string> {
      const row = await db
        .insertInto('admin_unit')
        .values({ name: d.name, created_by: createdBy, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeLinks(row.id, d);
      return row.id;
    },

    /** Replaces a unit's definition; false when there is no such unit. */
    async replace(id: string, d: UnitDefinition, now: Date): Promise<boolean> {
      const updated = await db
        .updateTable('admin_unit')
        .set({ name: d.name, updated_at: now })
        .where('id', '=', id)
        .returning('id')
        .execute();
      if (updated.length === 0) return false;
      for (const table of ['admin_unit_group', 'admin_unit_person', 'admin_unit_helpdesk_group', 'admin_unit_helpdesk_person'] as const) {
        await db.deleteFrom(table).where('unit_id', '=', id).execute();
      }
      await writeLinks(id, d);
      return true;
    },

    async remove(id: string): Promise<boolean> {
      const r = await db.deleteFrom('admin_unit').where('id', '=', id).returning('id').execute();
      return r.length > 0;
    },

    /** Directory groups whose name contains `q`, by name; one more than `limit` tells there are more. */
    async searchGroups(q: string, limit: number): Promise<GroupRow[]> {
      let query = db
        .selectFrom('scim_group as g')
        .select(['g.id', 'g.display_name'])
        .select((eb) =>
          eb
            .selectFrom('scim_group_member as gm')
            .select(eb.fn.countAll<string | number>().as('n'))
            .whereRef('gm.group_id', '=', 'g.id')
            .as('member_count'),
        );
      if (q) query = query.where(sql`lower(g.display_name)`, 'like', containsPattern(q));
      const rows = await query
        .orderBy(sql`lower(g.display_name)`)
        .limit(limit)
        .execute();
      return rows.map((r) => ({ id: r.id, name: r.display_name, memberCount: Number(r.member_count ?? 0) }));
    },

    // --- membership, read on every request of a scoped helpdesk member ---

    /** The units `upn` serves: assigned in person, or through a directory group they are in. */
    async unitsServedBy(upn: string) {
      return db
        .selectFrom('admin_unit as u')
        .select(['u.id', 'u.name'])
        .where((eb) =>
          eb.or([
            eb.exists(
              eb
                .selectFrom('admin_unit_helpdesk_person as hp')
                .select(sql`1`.as('one'))
                .whereRef('hp.unit_id', '=', 'u.id')
                .where('hp.upn', '=', upn),
            ),
            eb.exists(
              eb
                .selectFrom('admin_unit_helpdesk_group as hg')
                .innerJoin('scim_group_member as gm', 'gm.group_id', 'hg.group_id')
                .innerJoin('scim_user as su', 'su.id', 'gm.user_id')
                .select(sql`1`.as('one'))
                .whereRef('hg.unit_id', '=', 'u.id')
                .where(UNIT_OF_CALLER_GROUP, '=', upn),
            ),
          ]),
        )
        .orderBy(sql`lower(u.name)`)
        .execute();
    },

    /** Which of `unitIds` hold `upn` (by name, or through a group). */
    async unitsHolding(upn: string, unitIds: readonly string[]) {
      if (unitIds.length === 0) return [];
      return db
        .selectFrom('admin_unit as u')
        .select(['u.id', 'u.name'])
        .where('u.id', 'in', unitIds)
        .where((eb) =>
          eb.or([
            eb.exists(
              eb
                .selectFrom('admin_unit_person as p')
                .select(sql`1`.as('one'))
                .whereRef('p.unit_id', '=', 'u.id')
                .where('p.upn', '=', upn),
            ),
            eb.exists(
              eb
                .selectFrom('scim_user as su')
                .innerJoin('scim_group_member as gm', 'gm.user_id', 'su.id')
                .innerJoin('admin_unit_group as ug', 'ug.group_id', 'gm.group_id')
                .select(sql`1`.as('one'))
                .whereRef('ug.unit_id', '=', 'u.id')
                .where(UNIT_OF_CALLER_GROUP, '=', upn),
            ),
          ]),
        )
        .orderBy(sql`lower(u.name)`)
        .execute();
    },

    /**
     * Admin user search within units: the directory's people the units hold whose sign-in name, e-mail
     * or name matches (the same indexes as the directory's own search), by sign-in name after `afterUpn`.
     */
    searchMembers(unitIds: readonly string[], query: string, afterUpn: string | null, limit: number) {
      let q = db
        .selectFrom('directory_user')
        .selectAll()
        .where(heldByUnits(sql.ref('directory_user.upn'), unitIds));
      const matches = userSearchCondition(query, DIRECTORY_SEARCH_TEXT, DIRECTORY_PREFIX_KEYS);
      if (matches) q = q.where(matches);
      if (afterUpn !== null) q = q.where('upn', '>', afterUpn.toLowerCase());
      return q.orderBy('upn').limit(limit).execute();
    },
  };
}

export type UnitsRepository = ReturnType<typeof unitsRepository>;
