import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { containsPattern, prefixPattern } from './like.js';

/**
 * What admin user search matches, on the builtin store (`mfa_user`) and on the portal's directory
 * (`directory_user`). The planner uses an expression index only for the very same expression, so the
 * repositories' queries and the indexes (migrations 0008 and 0016, which keep their own copies, as a
 * shipped migration never changes) must agree: `test/scale.int.test.ts` asks for each plan.
 *
 * - A query with three letters or digits in a row matches anywhere in the sign-in name, e-mail and
 *   name, through a trigram index.
 * - A shorter query (one or two letters, or letters split by punctuation) has no trigram to look up:
 *   it matches the start of the sign-in name, the e-mail, the name or the surname (its last word),
 *   each through a prefix index, so it never reads the whole table.
 */
export const MFA_USER_SEARCH_TEXT = `lower(username || ' ' || email || ' ' || real_name)`;
export const DIRECTORY_SEARCH_TEXT = `lower(upn || ' ' || email || ' ' || display_name)`;

const surnameOf = (column: string) => `regexp_replace(lower(${column}), '^.*\\s', '')`;
export const MFA_USER_PREFIX_KEYS = ['lower(username)', 'lower(email)', 'lower(real_name)', surnameOf('real_name')] as const;
export const DIRECTORY_PREFIX_KEYS = ['lower(upn)', 'lower(email)', 'lower(display_name)', surnameOf('display_name')] as const;

/** Whether a query can be looked up by trigrams: three letters or digits in a row (pg_trgm's words). */
const searchesInside = (query: string) => /[\p{L}\p{N}]{3}/u.test(query);

/**
 * The WHERE condition of an admin user search over `text` (the trigram-indexed expression) and
 * `prefixKeys` (the prefix-indexed ones) of one table; null for an empty query (everyone).
 */
export function userSearchCondition(query: string, text: string, prefixKeys: readonly string[]): RawBuilder<SqlBool> | null {
  if (searchesInside(query)) return sql<SqlBool>`${sql.raw(text)} like ${containsPattern(query)}`;
  if (query === '') return null;
  const prefix = prefixPattern(query);
  return sql<SqlBool>`(${sql.join(
    prefixKeys.map((key) => sql`${sql.raw(key)} like ${prefix}`),
    sql` or `,
  )})`;
}

/**
 * The names of the audit log that "By" and "About" search: the same expressions as the trigram and
 * prefix indexes of migration 0023 (which keeps its own copy, as a shipped migration never changes).
 */
export const AUDIT_ACTOR_NAME = 'lower(actor_upn)';
export const AUDIT_TARGET_NAME = 'lower(target_upn)';

/**
 * Part of a sign-in name in the audit log: anywhere in it when the query has three letters or digits
 * in a row (the trigram index), else its start (the prefix index), so no query reads the whole log.
 */
export function auditNameCondition(query: string, name: typeof AUDIT_ACTOR_NAME | typeof AUDIT_TARGET_NAME): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.raw(name)} like ${searchesInside(query) ? containsPattern(query) : prefixPattern(query)}`;
}
