import { sql, type Kysely } from 'kysely';

/**
 * Passkeys and security keys (WebAuthn):
 * - two new device kinds (`passkey`, `security_key`) and a `webauthn` step-up method;
 * - `mfa_webauthn_credential`: the public key, signature counter and flags of a builtin device of those
 *   kinds (one row per device, removed with it);
 * - `webauthn_challenge`: server-side challenges of registrations and assertions (single use, expiring;
 *   in the database so that every instance can finish what another started);
 * - `webauthn_policy`: the Solution Administrator's allow-list of authenticator models (AAGUIDs) and
 *   whether protected accounts must step up with WebAuthn.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table mfa_device drop constraint mfa_device_kind_check`.execute(db);
  await sql`alter table mfa_device add constraint mfa_device_kind_check
    check (kind in ('phone', 'authenticator', 'hardware_token', 'passkey', 'security_key'))`.execute(db);
  await sql`alter table step_up drop constraint step_up_method_check`.execute(db);
  await sql`alter table step_up add constraint step_up_method_check
    check (method in ('passcode', 'bypass', 'push', 'webauthn'))`.execute(db);

  await db.schema
    .createTable('mfa_webauthn_credential')
    .addColumn('device_id', 'uuid', (c) => c.primaryKey().references('mfa_device.id').onDelete('cascade'))
    // base64url credential id: unique over all users (an authenticator cannot be registered twice).
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    // COSE public key, base64url.
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('sign_count', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`sign_count >= 0`),
    )
    .addColumn('transports', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('aaguid', 'text', (c) => c.notNull())
    .addColumn('attachment', 'text', (c) => c.check(sql`attachment in ('platform', 'cross-platform')`))
    .addColumn('backup_eligible', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('backed_up', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('webauthn_challenge')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('upn', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('registration', 'step_up', 'device_test', 'sign_in')`))
    .addColumn('challenge', 'text', (c) => c.notNull())
    // device_test: the device being tested; sign_in: the interaction it belongs to.
    .addColumn('device_id', 'uuid')
    .addColumn('interaction_uid', 'text')
    // registration started after a step-up (or as the first device).
    .addColumn('allow_additional', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenge_expires_idx').on('webauthn_challenge').column('expires_at').execute();
  await db.schema.createIndex('webauthn_challenge_upn_idx').on('webauthn_challenge').column('upn').execute();

  await db.schema
    .createTable('webauthn_policy')
    .addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('aaguid_allow_list', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('require_phishing_resistant', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webauthn_policy').execute();
  await db.schema.dropTable('webauthn_challenge').execute();
  await db.schema.dropTable('mfa_webauthn_credential').execute();
  await sql`delete from mfa_device where kind in ('passkey', 'security_key')`.execute(db);
  await sql`delete from step_up where method = 'webauthn'`.execute(db);
  await sql`alter table step_up drop constraint step_up_method_check`.execute(db);
  await sql`alter table step_up add constraint step_up_method_check check (method in ('passcode', 'bypass', 'push'))`.execute(db);
  await sql`alter table mfa_device drop constraint mfa_device_kind_check`.execute(db);
  await sql`alter table mfa_device add constraint mfa_device_kind_check check (kind in ('phone', 'authenticator', 'hardware_token'))`.execute(
    db,
  );
}
