import { sql, type Kysely } from 'kysely';

/**
 * Administrative units: a part of the organisation that some Helpdesk Administrators serve, as Entra's
 * administrative units and Duo's administrative units do.
 *
 * - A unit holds people by directory group (SCIM groups) and/or by person (the portal's directory).
 *   Groups are read as they are on each request, so someone who leaves a group leaves its units at once.
 * - Helpdesk Administrators are assigned to units in person or through a directory group.
 * - Every way in has an index both ways (from the unit, and from the person or the group), so a scoped
 *   search or a scope check stays an index lookup at any size of the directory.
 *
 * A deleted group or person leaves the units with it (cascade); a renamed person keeps their units.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_unit')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One unit per name, whatever its case ("Finance" and "finance" would confuse everyone).
  await sql`create unique index admin_unit_name_uq on admin_unit (lower(name))`.execute(db);

  const unitId = (c: any) => c.notNull().references('admin_unit.id').onDelete('cascade');
  const groupId = (c: any) => c.notNull().references('scim_group.id').onDelete('cascade');
  const upn = (c: any) => c.notNull().references('directory_user.upn').onDelete('cascade').onUpdate('cascade');

  for (const [table, column, ref] of [
    ['admin_unit_group', 'group_id', groupId],
    ['admin_unit_person', 'upn', upn],
    ['admin_unit_helpdesk_group', 'group_id', groupId],
    ['admin_unit_helpdesk_person', 'upn', upn],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('unit_id', 'uuid', unitId)
      .addColumn(column, column === 'upn' ? 'text' : 'uuid', ref)
      .addPrimaryKeyConstraint(`${table}_pk`, ['unit_id', column])
      .execute();
    // From the person or the group to its units (the primary key serves the other way).
    await db.schema.createIndex(`${table}_${column}_idx`).on(table).columns([column, 'unit_id']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['admin_unit_helpdesk_person', 'admin_unit_helpdesk_group', 'admin_unit_person', 'admin_unit_group', 'admin_unit']) {
    await db.schema.dropTable(table).execute();
  }
}
