import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Generated secrets that must survive restarts and be shared by every instance (cookie keys, ...).
  await db.schema
    .createTable('app_secret')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Missing translation keys reported by the SPA in development (POST /locales/add/:lng/:ns).
  await db.schema
    .createTable('missing_translation')
    .addColumn('lng', 'text', (c) => c.notNull())
    .addColumn('ns', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fallback', 'text', (c) => c.notNull())
    .addColumn('reports', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('missing_translation_pk', ['lng', 'ns', 'key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('missing_translation').execute();
  await db.schema.dropTable('app_secret').execute();
}
