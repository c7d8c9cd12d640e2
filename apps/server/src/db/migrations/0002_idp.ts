import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Everything oidc-provider persists (sessions, grants, codes, refresh tokens, interactions...).
  await db.schema
    .createTable('oidc_payload')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addPrimaryKeyConstraint('oidc_payload_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_payload_grant_idx').on('oidc_payload').column('grant_id').execute();
  await db.schema.createIndex('oidc_payload_uid_idx').on('oidc_payload').columns(['model', 'uid']).execute();
  await db.schema.createIndex('oidc_payload_expires_idx').on('oidc_payload').column('expires_at').execute();

  // The embedded identity provider's directory (demo staff). Entra ID replaces it in production.
  await db.schema
    .createTable('idp_account')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('given_name', 'text', (c) => c.notNull())
    .addColumn('family_name', 'text', (c) => c.notNull())
    .addColumn('roles', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idp_account').execute();
  await db.schema.dropTable('oidc_payload').execute();
}
