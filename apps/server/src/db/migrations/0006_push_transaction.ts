import { sql, type Kysely } from 'kysely';

/**
 * Pushes the portal started: a test push, a step-up by push, a helpdesk verification push.
 * The provider's transaction id is bound here to the user, the device and the purpose, so a poll names
 * the portal's own id and another user's push is simply not found; a push counts once (`completed_at`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('push_transaction')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('upn', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('device_test', 'step_up', 'admin_verify_identity')`))
    // The provider's transaction id (Duo txid or verification push id); never shown to anyone.
    .addColumn('provider_ref', 'text', (c) => c.notNull())
    .addColumn('actor_upn', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('waiting')
        .check(sql`state in ('waiting', 'approved', 'denied', 'fraud', 'timeout')`),
    )
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('completed_at', 'timestamptz')
    .addCheckConstraint('push_transaction_upn_lower', sql`upn = lower(upn)`)
    .execute();
  await db.schema.createIndex('push_transaction_upn_idx').on('push_transaction').columns(['upn', 'started_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_transaction').execute();
}
