import { sql, type Kysely } from 'kysely';

/**
 * Audit to a SIEM: an outbox of audit events for each external stream (syslog over TLS, a signed
 * webhook), written in the same transaction as the event, so a stream gets an event if and only if it
 * was committed. The row names the event (the audit log is append-only, so the event is read at send
 * time); `siem_stream` holds each stream's delivery state and its lease, which one instance at a time
 * holds so that a stream is sent in order even with several instances.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('siem_stream')
    .addColumn('stream', 'text', (c) => c.primaryKey())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'timestamptz')
    .addColumn('last_delivered_at', 'timestamptz')
    .addColumn('last_delivered_event_id', 'bigint')
    .addCheckConstraint('siem_stream_name', sql`stream in ('syslog', 'webhook')`)
    .execute();
  await db
    .insertInto('siem_stream')
    .values([{ stream: 'syslog' }, { stream: 'webhook' }])
    .execute();

  await db.schema
    .createTable('siem_outbox')
    .addColumn('stream', 'text', (c) => c.notNull().references('siem_stream.stream'))
    .addColumn('audit_event_id', 'bigint', (c) => c.notNull().references('audit_event.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'timestamptz')
    .addPrimaryKeyConstraint('siem_outbox_pk', ['stream', 'audit_event_id'])
    .execute();
  // What each stream still has to send, in chain order; and what delivered rows the pruning removes.
  await sql`create index siem_outbox_pending_idx on siem_outbox (stream, audit_event_id) where delivered_at is null`.execute(db);
  await sql`create index siem_outbox_delivered_idx on siem_outbox (stream, delivered_at) where delivered_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('siem_outbox').execute();
  await db.schema.dropTable('siem_stream').execute();
}
