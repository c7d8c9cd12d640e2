import { sql, type Kysely } from 'kysely';

/**
 * Enrolment passes (the first-device policy): temporary access passes that the helpdesk issues so
 * a user may enrol a first device. Only a hash of the pass is stored. Redeeming one opens the add-device
 * flow for a short while (`redeemed_at`), without counting as a step-up for anything else.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('enrolment_pass')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('upn', 'text', (c) => c.notNull())
    .addColumn('pass_hash', 'text', (c) => c.notNull().unique())
    .addColumn('max_uses', 'integer', (c) => c.notNull().check(sql`max_uses between 1 and 10`))
    .addColumn('uses_left', 'integer', (c) => c.notNull().check(sql`uses_left >= 0`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('redeemed_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addCheckConstraint('enrolment_pass_upn_lower', sql`upn = lower(upn)`)
    .addCheckConstraint('enrolment_pass_lifetime', sql`expires_at <= created_at + interval '8 hours'`)
    .execute();
  await db.schema.createIndex('enrolment_pass_upn_idx').on('enrolment_pass').columns(['upn', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('enrolment_pass').execute();
}
