import { sql, type Kysely } from 'kysely';

/**
 * Each person's default sign-in method: the device, and how it is used (a push, a passcode, a
 * passkey), that the portal's sign-in page offers first. One row per person, keyed by the sign-in
 * name as the other per-person records are; no row means the person never chose. The device is named
 * by its id at the MFA provider, without a foreign key: the provider's devices may live elsewhere
 * (Duo), and a removed device leaves the row behind, which is read as "your choice is gone".
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('default_sign_in_method')
    .addColumn('upn', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('push', 'passcode', 'webauthn')`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('default_sign_in_method').execute();
}
