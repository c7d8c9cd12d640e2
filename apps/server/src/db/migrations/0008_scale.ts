import { sql, type Kysely } from 'kysely';

/**
 * Organisation scale: every lookup the API does goes through an index, whatever the number
 * of staff or audit events.
 *
 * - Usernames are compared case-insensitively (`lower(username)`): an expression index serves it.
 * - Admin user search matches a substring of the sign-in name, e-mail or name: one trigram (pg_trgm)
 *   index over the three, on the builtin store and on the portal's directory (Duo searches that).
 *   PGlite loads pg_trgm from its contrib bundle (see `db/database.ts`).
 * - Each audit filter (actor, target, action or its prefix, outcome, date) has an index.
 * - Hash-chain verification keeps checkpoints (the last verified event and its hash) and the progress
 *   of each verification run, so a re-check reads only what is new and progress can be polled from any
 *   instance.
 */
// The repositories' searches match exactly these expressions (builtin.repository.ts,
// directory.repository.ts): the planner uses an expression index only for the same expression.
const MFA_USER_SEARCH_TEXT = `lower(username || ' ' || email || ' ' || real_name)`;
const DIRECTORY_SEARCH_TEXT = `lower(upn || ' ' || email || ' ' || display_name)`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  // The directory is the one place admin search reads with Duo (which cannot search by substring):
  // kept current from sign-ins, SCIM and a paced sync of Duo's user list, with the status Duo gave.
  await db.schema.alterTable('directory_user').addColumn('mfa_status', 'text').execute();

  await sql`create index mfa_user_username_lower_idx on mfa_user (lower(username))`.execute(db);
  await sql`create index mfa_user_search_trgm_idx on mfa_user using gin (${sql.raw(MFA_USER_SEARCH_TEXT)} gin_trgm_ops)`.execute(db);
  await sql`create index directory_user_search_trgm_idx on directory_user using gin (${sql.raw(DIRECTORY_SEARCH_TEXT)} gin_trgm_ops)`.execute(
    db,
  );

  await sql`create index audit_event_actor_lower_idx on audit_event (lower(actor_upn), id)`.execute(db);
  await sql`create index audit_event_target_lower_idx on audit_event (lower(target_upn), id)`.execute(db);
  await sql`create index audit_event_action_idx on audit_event (action text_pattern_ops, id)`.execute(db);
  await sql`create index audit_event_outcome_idx on audit_event (outcome, id)`.execute(db);
  await sql`create index audit_event_occurred_at_idx on audit_event (occurred_at)`.execute(db);

  await db.schema
    .createTable('audit_checkpoint')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('last_event_id', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('event_count', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_checkpoint_last_event_idx').on('audit_checkpoint').column('last_event_id').execute();

  await db.schema
    .createTable('audit_verification')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('full', 'incremental')`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('running', 'done', 'failed')`))
    .addColumn('started_by', 'text')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('checked', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('result', 'jsonb')
    .execute();
  await db.schema.createIndex('audit_verification_started_idx').on('audit_verification').column('started_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_verification').execute();
  await db.schema.dropTable('audit_checkpoint').execute();
  await db.schema.alterTable('directory_user').dropColumn('mfa_status').execute();
  for (const name of [
    'audit_event_occurred_at_idx',
    'audit_event_outcome_idx',
    'audit_event_action_idx',
    'audit_event_target_lower_idx',
    'audit_event_actor_lower_idx',
    'directory_user_search_trgm_idx',
    'mfa_user_search_trgm_idx',
    'mfa_user_username_lower_idx',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
}
