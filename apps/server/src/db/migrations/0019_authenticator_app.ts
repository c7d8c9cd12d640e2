import { sql, type Kysely } from 'kysely';

/**
 * The portal's own authenticator app on the builtin provider (push with number matching, passcodes):
 * - `mfa_device.app`: `portal_authenticator` on a phone activated in that app (null otherwise);
 * - `mfa_authenticator`: the device key (public JWK) and the sealed Web Push subscription of such a
 *   phone, removed with its device;
 * - `mfa_authenticator_activation`: single-use activation links, kept only as the SHA-256 of the token;
 * - `mfa_push_request`: each push to such a phone, its two-digit number, what the phone shows, its
 *   state; in the database so that a request started on one instance can be answered through another;
 * - `portal_secret`: secrets the portal generates once for every instance (the VAPID key pair), sealed.
 *
 * The change feed (0017) also covers push requests and activations, so every instance hears at once
 * that a request was started or answered, or a link used, and tells the browsers and apps it serves.
 */

const FEED_TABLES = ['mfa_push_request', 'mfa_authenticator_activation'] as const;
const TRIGGERS = [
  ['ins', 'insert', 'new'],
  ['upd_new', 'update', 'new'],
  ['upd_old', 'update', 'old'],
  ['del', 'delete', 'old'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // The embedded sign-in page can now ask for a push too.
  await sql`alter table push_transaction drop constraint push_transaction_purpose_check`.execute(db);
  await sql`alter table push_transaction add constraint push_transaction_purpose_check
    check (purpose in ('device_test', 'step_up', 'admin_verify_identity', 'sign_in'))`.execute(db);
  await db.schema
    .alterTable('mfa_device')
    .addColumn('app', 'text', (c) => c.check(sql`app in ('portal_authenticator')`))
    .execute();

  await db.schema
    .createTable('mfa_authenticator')
    .addColumn('device_id', 'uuid', (c) => c.primaryKey().references('mfa_device.id').onDelete('cascade'))
    // The device key's public half (EC P-256 JWK): it checks every signed request and answer.
    .addColumn('public_key_jwk', 'jsonb', (c) => c.notNull())
    .addColumn('push_subscription_sealed', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('mfa_authenticator_activation')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('mfa_user.id').onDelete('cascade'))
    // SHA-256 of the token, hex: the token itself is never stored. Unique: its index finds the link.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // Started after a step-up (or as the first device); see the first-device rule.
    .addColumn('allow_additional', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('device_id', 'uuid', (c) => c.references('mfa_device.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('mfa_authenticator_activation_user_idx').on('mfa_authenticator_activation').column('user_id').execute();

  await db.schema
    .createTable('mfa_push_request')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('mfa_user.id').onDelete('cascade'))
    .addColumn('device_id', 'uuid', (c) => c.notNull().references('mfa_device.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('sign_in', 'step_up', 'device_test', 'helpdesk_check')`))
    .addColumn('number', 'text', (c) => c.notNull().check(sql`number ~ '^[1-9][0-9]$'`))
    // What the phone shows: application, browser, os, ipAddress, location, requestedBy.
    .addColumn('context', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('waiting')
        .check(sql`state in ('waiting', 'approved', 'denied', 'fraud', 'timeout')`),
    )
    .addColumn('answered_at', 'timestamptz')
    .execute();
  // The app's list of what waits for it; the user's requests (removal, clean-up).
  await db.schema
    .createIndex('mfa_push_request_pending_idx')
    .on('mfa_push_request')
    .columns(['device_id', 'state', 'expires_at'])
    .execute();
  await db.schema.createIndex('mfa_push_request_user_idx').on('mfa_push_request').columns(['user_id', 'expires_at']).execute();

  await db.schema
    .createTable('portal_secret')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  for (const table of FEED_TABLES) {
    for (const [suffix, event, side] of TRIGGERS) {
      await sql`
        create trigger ${sql.raw(`${table}_changes_${suffix}`)}
        after ${sql.raw(event)} on ${sql.table(table)}
        referencing ${sql.raw(side)} table as changed_rows
        for each statement execute function portal_notify_user_changes('user_id')`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from push_transaction where purpose = 'sign_in'`.execute(db);
  await sql`alter table push_transaction drop constraint push_transaction_purpose_check`.execute(db);
  await sql`alter table push_transaction add constraint push_transaction_purpose_check
    check (purpose in ('device_test', 'step_up', 'admin_verify_identity'))`.execute(db);
  for (const table of FEED_TABLES) {
    for (const [suffix] of TRIGGERS) await sql`drop trigger ${sql.raw(`${table}_changes_${suffix}`)} on ${sql.table(table)}`.execute(db);
  }
  await db.schema.dropTable('portal_secret').execute();
  await db.schema.dropTable('mfa_push_request').execute();
  await db.schema.dropTable('mfa_authenticator_activation').execute();
  await db.schema.dropTable('mfa_authenticator').execute();
  // Without the app, such a phone can do nothing on the builtin provider: it goes with it.
  await sql`delete from mfa_device where app is not null`.execute(db);
  await db.schema.alterTable('mfa_device').dropColumn('app').execute();
}
