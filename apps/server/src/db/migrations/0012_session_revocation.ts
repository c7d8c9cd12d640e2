import { sql, type Kysely } from 'kysely';

/**
 * Session revocation (signing out revokes the tokens already issued): per user, the time before which every access
 * token is refused by the API (sign-out, a helpdesk "sign out everywhere", a disabled account). Kept in
 * the database so every instance refuses the same tokens at once; one primary-key lookup per request.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('session_revocation')
    .addColumn('upn', 'text', (c) => c.primaryKey())
    .addColumn('revoked_before', 'timestamptz', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('session_revocation_upn_lower', sql`upn = lower(upn)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('session_revocation').execute();
}
