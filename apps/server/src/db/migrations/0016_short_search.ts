import { sql, type Kysely } from 'kysely';

/**
 * Admin user search at any size, for one- and two-letter queries. Trigrams need three
 * letters or digits, so such a query cannot use the trigram indexes of 0008 and read every row. It
 * matches the start of the sign-in name, the e-mail address, the name or the surname instead, each
 * through a `text_pattern_ops` index (prefix LIKE, whatever the database's collation), on the builtin
 * store and on the portal's directory.
 */
// The same expressions as db/search-text.ts's prefix keys, kept here as shipped.
const MFA_USER_PREFIX_KEYS = ['lower(username)', 'lower(email)', 'lower(real_name)', `regexp_replace(lower(real_name), '^.*\\s', '')`];
const DIRECTORY_PREFIX_KEYS = ['lower(upn)', 'lower(email)', 'lower(display_name)', `regexp_replace(lower(display_name), '^.*\\s', '')`];
const indexName = (table: string, i: number) => `${table}_prefix_${i}_idx`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, keys] of [
    ['mfa_user', MFA_USER_PREFIX_KEYS],
    ['directory_user', DIRECTORY_PREFIX_KEYS],
  ] as const) {
    for (const [i, key] of keys.entries()) {
      await sql`create index ${sql.raw(indexName(table, i))} on ${sql.table(table)} ((${sql.raw(key)}) text_pattern_ops)`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, keys] of [
    ['mfa_user', MFA_USER_PREFIX_KEYS],
    ['directory_user', DIRECTORY_PREFIX_KEYS],
  ] as const) {
    for (const i of keys.keys()) await db.schema.dropIndex(indexName(table, i)).execute();
  }
}
