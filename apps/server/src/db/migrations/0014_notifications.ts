import { sql, type Kysely } from 'kysely';

/**
 * Security notifications: an outbox of e-mails written in the same transaction as the audit
 * event that causes them (so a message exists if and only if the change committed), sent by a loop
 * with back-off. No secret is ever stored here: the parameters are names, times and ticket references.
 * Also the client's User-Agent on audit events (sign-in activity shows browser and system).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_event').addColumn('user_agent', 'text').execute();
  await db.schema
    .createTable('notification_outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('audit_event_id', 'bigint')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target_upn', 'text')
    .addColumn('recipient', 'text')
    .addColumn('params', 'jsonb', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addCheckConstraint('notification_outbox_state', sql`state in ('pending', 'sent', 'failed')`)
    .execute();
  await db.schema.createIndex('notification_outbox_due_idx').on('notification_outbox').columns(['state', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_outbox').execute();
  await db.schema.alterTable('audit_event').dropColumn('user_agent').execute();
}
