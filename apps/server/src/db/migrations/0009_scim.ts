import { sql, type Kysely } from 'kysely';

/**
 * Provisioning: SCIM 2.0 users and groups as Entra's provisioning
 * service sends them, the bearer tokens it authenticates with (stored hashed), and where each
 * directory user came from. A user's SCIM `roles` (app role assignments) are kept with the resource
 * and copied into `directory_user.roles`, so the policy knows them before the first sign-in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scim_token')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    // sha256 of a 32-byte random token (hex): the token itself is shown once, never stored.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  // One live token per name (a revoked name may be reused).
  await sql`create unique index scim_token_live_name_uq on scim_token (lower(name)) where revoked_at is null`.execute(db);

  await db.schema
    .createTable('scim_user')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('display_name', 'text')
    .addColumn('given_name', 'text')
    .addColumn('family_name', 'text')
    .addColumn('formatted_name', 'text')
    .addColumn('emails', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // null: the directory never sent roles (unknown, so the account stays protected).
    .addColumn('roles', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index scim_user_user_name_uq on scim_user (lower(user_name))`.execute(db);
  await db.schema.createIndex('scim_user_external_id_idx').on('scim_user').column('external_id').execute();

  await db.schema
    .createTable('scim_group')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index scim_group_display_name_uq on scim_group (lower(display_name))`.execute(db);

  await db.schema
    .createTable('scim_group_member')
    .addColumn('group_id', 'uuid', (c) => c.notNull().references('scim_group.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('scim_user.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('scim_group_member_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('scim_group_member_user_idx').on('scim_group_member').column('user_id').execute();

  // Where each directory user came from, and when it was created and last changed.
  await db.schema
    .alterTable('directory_user')
    .addColumn('source', 'text', (c) => c.check(sql`source in ('scim', 'jit', 'demo', 'sign_in')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`update directory_user set source = case when exists (select 1 from idp_account a where lower(a.username) = directory_user.upn) then 'demo' else 'sign_in' end`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('directory_user').dropColumn('updated_at').dropColumn('created_at').dropColumn('source').execute();
  await db.schema.dropTable('scim_group_member').execute();
  await db.schema.dropTable('scim_group').execute();
  await db.schema.dropTable('scim_user').execute();
  await db.schema.dropTable('scim_token').execute();
}
