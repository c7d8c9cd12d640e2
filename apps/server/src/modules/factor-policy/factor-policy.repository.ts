import { sql, type Kysely, type Selectable } from 'kysely';
import { FACTOR_KINDS, type FactorKind, type FactorMaxPerKind, type FactorPolicyRule } from '@mfa-portal/shared';
import type { Database, FactorPolicyGlobalTable, FactorPolicyGroupTable } from '../../db/schema.js';

/**
 * SQL of the factor policy (migration 0025): the global row, the directory groups' overrides, and who
 * is in which group, read as the directory is now (SCIM groups; nothing is copied, so someone who leaves
 * a group leaves its policy on their next request).
 */

export interface StoredRule extends FactorPolicyRule {
  updatedBy: string;
  updatedAt: Date;
}
export interface StoredOverride extends StoredRule {
  groupId: string;
  groupName: string;
  memberCount: number;
}

const KINDS: ReadonlySet<string> = new Set(FACTOR_KINDS);
const kinds = (list: readonly string[]): FactorKind[] => list.filter((k): k is FactorKind => KINDS.has(k));
const maxima = (value: unknown): FactorMaxPerKind => {
  const raw = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown> | null;
  const out: FactorMaxPerKind = {};
  for (const k of FACTOR_KINDS) if (typeof raw?.[k] === 'number') out[k] = raw[k];
  return out;
};

function toRule(row: Selectable<FactorPolicyGlobalTable> | Selectable<FactorPolicyGroupTable>): StoredRule {
  return {
    enrol: kinds(row.enrol),
    use: kinds(row.use),
    requirePhishingResistant: row.require_phishing_resistant,
    maxPerKind: maxima(row.max_per_kind),
    updatedBy: row.updated_by,
    updatedAt: new Date(row.updated_at),
  };
}

const columns = (rule: FactorPolicyRule, by: string, at: Date) => ({
  enrol: rule.enrol,
  use: rule.use,
  require_phishing_resistant: rule.requirePhishingResistant,
  max_per_kind: JSON.stringify(rule.maxPerKind),
  updated_by: by,
  updated_at: at,
});

export function factorPolicyRepository(db: Kysely<Database>) {
  const overrideRows = () =>
    db
      .selectFrom('factor_policy_group as p')
      .innerJoin('scim_group as g', 'g.id', 'p.group_id')
      .selectAll('p')
      .select('g.display_name as group_name')
      .select((eb) =>
        eb
          .selectFrom('scim_group_member as m')
          .whereRef('m.group_id', '=', 'p.group_id')
          .select(sql<string>`count(*)`.as('n'))
          .as('member_count'),
      );
  const toOverride = (row: Selectable<FactorPolicyGroupTable> & { group_name: string; member_count: string | number | null }) => ({
    ...toRule(row),
    groupId: row.group_id,
    groupName: row.group_name,
    memberCount: Number(row.member_count ?? 0),
  });

  return {
    /** The global policy as stored; null before an administrator first saved it. */
    async global(): Promise<StoredRule | null> {
      const row = await db.selectFrom('factor_policy_global').selectAll().where('id', '=', 1).executeTakeFirst();
      return row ? toRule(row) : null;
    },

    async saveGlobal(rule: FactorPolicyRule, by: string, at: Date): Promise<void> {
      const values = columns(rule, by, at);
      await db
        .insertInto('factor_policy_global')
        .values({ id: 1, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
    },

    /** Every override, by group name. */
    async overrides(): Promise<StoredOverride[]> {
      const rows = await overrideRows().orderBy('g.display_name').orderBy('p.group_id').execute();
      return rows.map(toOverride);
    },

    async override(groupId: string): Promise<StoredOverride | null> {
      const row = await overrideRows().where('p.group_id', '=', groupId).executeTakeFirst();
      return row ? toOverride(row) : null;
    },

    async insertOverride(groupId: string, rule: FactorPolicyRule, by: string, at: Date): Promise<boolean> {
      const inserted = await db
        .insertInto('factor_policy_group')
        .values({ group_id: groupId, ...columns(rule, by, at) })
        .onConflict((oc) => oc.column('group_id').doNothing())
        .returning('group_id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async updateOverride(groupId: string, rule: FactorPolicyRule, by: string, at: Date): Promise<boolean> {
      const r = await db
        .updateTable('factor_policy_group')
        .set(columns(rule, by, at))
        .where('group_id', '=', groupId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async deleteOverride(groupId: string): Promise<boolean> {
      const r = await db.deleteFrom('factor_policy_group').where('group_id', '=', groupId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** A directory group's name; null when no such group exists. */
    async groupName(groupId: string): Promise<string | null> {
      const row = await db.selectFrom('scim_group').select('display_name').where('id', '=', groupId).executeTakeFirst();
      return row?.display_name ?? null;
    },

    /** The overrides of the groups this person is in now (by sign-in name, as SCIM keeps it). */
    async overridesOf(upn: string): Promise<StoredOverride[]> {
      const rows = await overrideRows()
        .where('p.group_id', 'in', (eb) =>
          eb
            .selectFrom('scim_group_member as m')
            .innerJoin('scim_user as u', 'u.id', 'm.user_id')
            .select('m.group_id')
            .where(sql<boolean>`lower(u.user_name) = ${upn.toLowerCase()}`),
        )
        .execute();
      return rows.map(toOverride);
    },

    /**
     * Everyone in the portal's directory, with which of `groupIds` they are in now: the people a policy
     * change could reach, to work out each one's policy before and after.
     */
    /**
     * People of the directory with the groups of `groupIds` they are in; only the members of
     * `membersOf` when given (a group's override reaches no one else, so its preview reads its members,
     * not the whole directory).
     */
    async people(groupIds: readonly string[], membersOf?: string): Promise<Array<{ upn: string; displayName: string; groups: string[] }>> {
      const inGroups =
        groupIds.length === 0
          ? sql<string[]>`'{}'::text[]`
          : sql<string[]>`coalesce((select array_agg(m.group_id::text order by m.group_id) from scim_group_member m
              join scim_user su on su.id = m.user_id
              where lower(su.user_name) = d.upn and m.group_id in (${sql.join(groupIds.map((id) => sql`${id}::uuid`))})), '{}'::text[])`;
      const from =
        membersOf === undefined
          ? sql`directory_user d`
          : sql`scim_group_member sm join scim_user s on s.id = sm.user_id join directory_user d on d.upn = lower(s.user_name)`;
      const where = membersOf === undefined ? sql`` : sql`where sm.group_id = ${membersOf}::uuid`;
      const rows = await sql<{ upn: string; display_name: string; groups: string[] | string }>`
        select distinct d.upn, d.display_name, ${inGroups} as groups from ${from} ${where} order by d.upn`.execute(db);
      return rows.rows.map((r) => ({
        upn: r.upn,
        displayName: r.display_name,
        groups: Array.isArray(r.groups) ? r.groups.map(String) : parsePgArray(r.groups),
      }));
    },
  };
}

/** A text array as some drivers hand it back (`{a,b}`). */
function parsePgArray(value: string): string[] {
  const inner = value.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',').map((s) => s.replace(/^"|"$/g, ''));
}

export type FactorPolicyRepository = ReturnType<typeof factorPolicyRepository>;
