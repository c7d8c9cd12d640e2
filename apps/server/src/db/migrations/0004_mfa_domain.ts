import { sql, type Kysely } from 'kysely';

/**
 * The MFA domain: what the builtin provider needs to verify factors (sealed TOTP secrets
 * with their last used step, Duo D100 token inventory with monotonic counters, pending authenticator
 * enrolments, lockout state), step-up records, and the hash-chained, append-only audit log.
 */

const GENESIS_HASH = '0'.repeat(64);

export async function up(db: Kysely<any>): Promise<void> {
  // --- hardware token inventory (Duo D100, HOTP) ---
  await db.schema
    .createTable('mfa_hardware_token')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('serial', 'text', (c) => c.notNull())
    .addColumn('token_type', 'text', (c) =>
      c
        .notNull()
        .defaultTo('Duo D100')
        .check(sql`token_type in ('Duo D100')`),
    )
    // AES-256-GCM sealed seed (secret-box format), bound to the row id.
    .addColumn('seed_sealed', 'text', (c) => c.notNull())
    // Next expected HOTP counter; never goes back (trigger below).
    .addColumn('counter', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`counter >= 0`),
    )
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('available')
        .check(sql`status in ('available', 'assigned', 'retired')`),
    )
    // Release a token before deleting its user (restrict), so it never stays "assigned" to nobody.
    .addColumn('user_id', 'uuid', (c) => c.references('mfa_user.id').onDelete('restrict'))
    .addColumn('assigned_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('mfa_hardware_token_assignment', sql`(status = 'assigned') = (user_id is not null)`)
    .execute();
  await sql`create unique index mfa_hardware_token_serial_uq on mfa_hardware_token (upper(serial))`.execute(db);
  await db.schema.createIndex('mfa_hardware_token_user_idx').on('mfa_hardware_token').column('user_id').execute();
  await sql`
    create function mfa_hardware_token_counter_forward() returns trigger language plpgsql as $$
    begin
      if new.counter < old.counter then
        raise exception 'mfa_hardware_token.counter never goes back (% to %)', old.counter, new.counter using errcode = 'check_violation';
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger mfa_hardware_token_counter_forward before update of counter on mfa_hardware_token
    for each row execute function mfa_hardware_token_counter_forward()`.execute(db);

  // --- devices: sealed TOTP secret and replay state; link to the inventory for hardware tokens ---
  await db.schema
    .alterTable('mfa_device')
    .addColumn('secret_sealed', 'text')
    .addColumn('last_used_step', 'bigint')
    .addColumn('hardware_token_id', 'uuid', (c) => c.unique().references('mfa_hardware_token.id').onDelete('restrict'))
    .execute();

  // --- authenticator enrolments waiting for their first code (they expire) ---
  await db.schema
    .createTable('mfa_totp_enrolment')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('mfa_user.id').onDelete('cascade'))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    // Started after a step-up (or as the first device): may be confirmed even if a device exists by then.
    .addColumn('allow_additional', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mfa_totp_enrolment_user_idx').on('mfa_totp_enrolment').column('user_id').execute();

  // --- verification state per user (lockout) ---
  await db.schema
    .alterTable('mfa_user')
    .addColumn('failed_attempts', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`failed_attempts >= 0`),
    )
    .addColumn('locked_until', 'timestamptz')
    .execute();

  // --- bypass codes: the uses they were created with (metadata) ---
  await db.schema
    .alterTable('mfa_bypass_code')
    .addColumn('reuse_count', 'integer', (c) => c.check(sql`reuse_count between 1 and 10`))
    .execute();
  await db.schema.createIndex('mfa_bypass_code_user_hash_idx').on('mfa_bypass_code').columns(['user_id', 'code_hash']).execute();

  // --- step-up: recent verifications with an existing factor (by UPN: provider independent) ---
  await db.schema
    .createTable('step_up')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('upn', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('passcode', 'bypass', 'push')`))
    .addColumn('verified_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('step_up_upn_idx').on('step_up').columns(['upn', 'verified_at']).execute();

  // --- audit log: append-only, hash-chained; appends serialised on the head row ---
  await db.schema
    .createTable('audit_event')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('actor_upn', 'text')
    .addColumn('actor_roles', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('target_upn', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('request_id', 'text')
    .addColumn('client_address', 'text')
    .addColumn('details', 'jsonb')
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .execute();
  await db.schema.createIndex('audit_event_target_idx').on('audit_event').columns(['target_upn', 'id']).execute();
  await db.schema.createIndex('audit_event_actor_idx').on('audit_event').columns(['actor_upn', 'id']).execute();
  await sql`
    create function audit_event_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_event is append-only' using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`
    create trigger audit_event_append_only before update or delete on audit_event
    for each row execute function audit_event_append_only()`.execute(db);
  await sql`
    create trigger audit_event_no_truncate before truncate on audit_event
    for each statement execute function audit_event_append_only()`.execute(db);

  await db.schema
    .createTable('audit_head')
    .addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('last_event_id', 'bigint')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.insertInto('audit_head').values({ id: 1, hash: GENESIS_HASH, last_event_id: null }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_head').execute();
  await db.schema.dropTable('audit_event').execute();
  await sql`drop function audit_event_append_only()`.execute(db);
  await db.schema.dropTable('step_up').execute();
  await db.schema.dropIndex('mfa_bypass_code_user_hash_idx').execute();
  await db.schema.alterTable('mfa_bypass_code').dropColumn('reuse_count').execute();
  await db.schema.alterTable('mfa_user').dropColumn('locked_until').dropColumn('failed_attempts').execute();
  await db.schema.dropTable('mfa_totp_enrolment').execute();
  await db.schema
    .alterTable('mfa_device')
    .dropColumn('hardware_token_id')
    .dropColumn('last_used_step')
    .dropColumn('secret_sealed')
    .execute();
  await db.schema.dropTable('mfa_hardware_token').execute();
  await sql`drop function mfa_hardware_token_counter_forward()`.execute(db);
}
