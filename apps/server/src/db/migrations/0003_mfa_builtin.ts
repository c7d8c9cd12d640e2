import { sql, type Kysely } from 'kysely';

/** Store of the builtin MFA provider (the embedded default; Duo replaces it in production). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mfa_user')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('real_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'bypass', 'disabled', 'locked_out')`))
    .addColumn('status_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('mfa_device')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('mfa_user.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('phone', 'authenticator', 'hardware_token')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('capabilities', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('phone_number', 'text')
    .addColumn('platform', 'text')
    .addColumn('serial', 'text')
    .addColumn('token_type', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('mfa_device_user_idx').on('mfa_device').column('user_id').execute();

  await db.schema
    .createTable('mfa_bypass_code')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('mfa_user.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('uses_left', 'integer', (c) => c.notNull().check(sql`uses_left >= 0`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('mfa_bypass_code_user_idx').on('mfa_bypass_code').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mfa_bypass_code').execute();
  await db.schema.dropTable('mfa_device').execute();
  await db.schema.dropTable('mfa_user').execute();
}
