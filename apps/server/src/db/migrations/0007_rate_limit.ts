import type { Kysely } from 'kysely';

/**
 * Rate-limit buckets shared by every instance on the same database (one row per key, e.g.
 * `verify:user:<upn>`): the token-bucket state of apps/server/src/mfa/rate-limit-store.ts. A row whose
 * bucket has refilled completely carries no information and is purged.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit_bucket')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('tokens', 'double precision', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('full_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_bucket_full_at').on('rate_limit_bucket').column('full_at_ms').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_bucket').execute();
}
