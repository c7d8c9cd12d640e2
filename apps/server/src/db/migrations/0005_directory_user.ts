import { sql, type Kysely } from 'kysely';

/**
 * The portal's memory of each user's roles: written on every successful
 * /account/getuserinfo, so an administrator acting on someone knows whether that account is
 * protected. `roles` null means never seen: the policy treats such an account as protected.
 * In the embedded mode the accounts of the embedded identity provider are copied in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('directory_user')
    .addColumn('upn', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('roles', sql`text[]`)
    .addColumn('last_seen_at', 'timestamptz')
    .addCheckConstraint('directory_user_upn_lower', sql`upn = lower(upn)`)
    .execute();
  await sql`
    insert into directory_user (upn, display_name, email, roles)
    select lower(username), trim(given_name || ' ' || family_name), email, roles from idp_account
    on conflict (upn) do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('directory_user').execute();
}
