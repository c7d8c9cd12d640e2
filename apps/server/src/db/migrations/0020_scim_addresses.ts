import { sql, type Kysely } from 'kysely';

/**
 * A SCIM user's postal addresses (RFC 7643, section 4.1.2: `addresses`, multi-valued, e.g. the work
 * address Entra maps from the office location), kept with the resource and returned as sent.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('scim_user')
    .addColumn('addresses', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scim_user').dropColumn('addresses').execute();
}
