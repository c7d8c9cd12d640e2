import { sql, type Kysely } from 'kysely';

/**
 * Reports for administrators.
 *
 * - `report_snapshot`: one row a day of the enrolment figures (staff, with at least one device, by
 *   kind), written by the snapshot job, so the coverage chart reads a few hundred rows whatever the
 *   organisation's size, and its history stays true after devices are removed (the audit log cannot
 *   rebuild it: devices seeded, imported or enrolled at Duo have no "added" event).
 * - Partial and expression indexes behind each paged list, in the order the list is read (keyset
 *   pages), so a page reads only its rows: locked or disabled accounts, devices by last use (or
 *   addition when never used), bypass codes in force by expiry.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('report_snapshot')
    .addColumn('day', 'date', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('staff', 'integer', (c) => c.notNull())
    .addColumn('covered', 'integer')
    .addColumn('by_kind', 'jsonb')
    .addColumn('taken_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await sql`create index mfa_user_attention_idx on mfa_user (username) where status in ('disabled', 'locked_out')`.execute(db);
  await sql`create index mfa_device_last_use_idx on mfa_device ((coalesce(last_used_at, created_at)), id)`.execute(db);
  await sql`create index mfa_device_kind_user_idx on mfa_device (kind, user_id)`.execute(db);
  await sql`create index mfa_bypass_code_in_force_idx on mfa_bypass_code (expires_at, id) where revoked_at is null and uses_left > 0`.execute(
    db,
  );
  await sql`create index directory_user_attention_idx on directory_user (upn) where mfa_status in ('disabled', 'locked_out')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'directory_user_attention_idx',
    'mfa_bypass_code_in_force_idx',
    'mfa_device_kind_user_idx',
    'mfa_device_last_use_idx',
    'mfa_user_attention_idx',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
  await db.schema.dropTable('report_snapshot').execute();
}
