import { sql, type Kysely } from 'kysely';

/**
 * Trust follows the session, not the account.
 * - `step_up.session_key` and `enrolment_pass.redeemed_session`: the sign-in session (a digest of the
 *   token's session id, or of the token itself where the identity provider names no session) that
 *   earned the grant. Rows written before this migration name no session and never count again.
 * - `push_transaction.session_key`: the session that started a push; only that session's polls see
 *   its answer, so an approval grants nothing to another sign-in of the same person.
 * - `directory_user.provisioned_at`: when SCIM created the user or the first sign-in created them just
 *   in time; the `window` first-device policy counts from here, not from the first sight of a name.
 * - `scim_user.adopted_at`: set when SCIM took over an account it did not create (null: SCIM created
 *   it). SCIM sets passwords only on accounts it created.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('step_up').addColumn('session_key', 'text').execute();
  await db.schema.createIndex('step_up_session_idx').on('step_up').columns(['upn', 'session_key', 'verified_at']).execute();
  await db.schema.alterTable('enrolment_pass').addColumn('redeemed_session', 'text').execute();
  await db.schema.alterTable('push_transaction').addColumn('session_key', 'text').execute();
  await db.schema.alterTable('directory_user').addColumn('provisioned_at', 'timestamptz').execute();
  await sql`update directory_user set provisioned_at = created_at where source in ('scim', 'jit')`.execute(db);
  await db.schema.alterTable('scim_user').addColumn('adopted_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scim_user').dropColumn('adopted_at').execute();
  await db.schema.alterTable('directory_user').dropColumn('provisioned_at').execute();
  await db.schema.alterTable('push_transaction').dropColumn('session_key').execute();
  await db.schema.alterTable('enrolment_pass').dropColumn('redeemed_session').execute();
  await db.schema.dropIndex('step_up_session_idx').execute();
  await db.schema.alterTable('step_up').dropColumn('session_key').execute();
}
