import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * Who administrative units hold, as SQL the units' queries and the reports' queries share (migration
 * 0024): the people named in a unit, and the members of its directory (SCIM) groups, by their sign-in
 * name in lower case as `directory_user.upn` keeps it. Read as the tables are now: nothing is copied, so
 * leaving a group leaves the unit at once.
 *
 * Each branch is an index walk from the unit (the primary keys), and from a person back to their units
 * (the reverse indexes), so a scoped search or report is a semi-join the planner can drive either way.
 */

/** The sign-in names (lower case) of everyone the units hold; a set (a person held in two ways counts once). */
export function unitMembersSql(unitIds: readonly string[]): RawBuilder<{ upn: string }> {
  const ids = sql.join(unitIds.map((id) => sql`${id}::uuid`));
  return sql<{ upn: string }>`select p.upn from admin_unit_person p where p.unit_id in (${ids})
    union
    select lower(su.user_name) from admin_unit_group ug
      join scim_group_member gm on gm.group_id = ug.group_id
      join scim_user su on su.id = gm.user_id
      where ug.unit_id in (${ids})`;
}

/** Whether `upn` (a lower-case sign-in name, e.g. a column) is held by one of the units; false for none. */
export function heldByUnits(upn: RawBuilder<unknown>, unitIds: readonly string[]): RawBuilder<SqlBool> {
  if (unitIds.length === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`${upn} in (${unitMembersSql(unitIds)})`;
}
