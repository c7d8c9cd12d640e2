import { sql, type Kysely } from 'kysely';

/**
 * The audit log searched by part of a name: "grace" in "About" or "By" finds grace@example.com's
 * events, at any size of the log.
 *
 * - Three letters or digits in a row match anywhere in the sign-in name, through a trigram (pg_trgm)
 *   index on each of the two names (loaded by 0008; PGlite from its contrib bundle, see db/database.ts).
 * - Shorter queries have no trigram to look up: they match the start of the name, through a
 *   `text_pattern_ops` index (prefix LIKE whatever the database's collation). It replaces 0008's index
 *   on the same expression and serves equality in id order just as well, so nothing loses its index.
 */
// The same expressions as db/search-text.ts's audit keys, kept here as shipped.
const NAMES = [
  ['actor', 'lower(actor_upn)'],
  ['target', 'lower(target_upn)'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, expression] of NAMES) {
    await sql`create index ${sql.raw(`audit_event_${name}_trgm_idx`)} on audit_event using gin ((${sql.raw(expression)}) gin_trgm_ops)`.execute(
      db,
    );
    await sql`drop index ${sql.raw(`audit_event_${name}_lower_idx`)}`.execute(db);
    await sql`create index ${sql.raw(`audit_event_${name}_prefix_idx`)} on audit_event ((${sql.raw(expression)}) text_pattern_ops, id)`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name, expression] of NAMES) {
    await sql`drop index ${sql.raw(`audit_event_${name}_prefix_idx`)}`.execute(db);
    await sql`create index ${sql.raw(`audit_event_${name}_lower_idx`)} on audit_event ((${sql.raw(expression)}), id)`.execute(db);
    await sql`drop index ${sql.raw(`audit_event_${name}_trgm_idx`)}`.execute(db);
  }
}
