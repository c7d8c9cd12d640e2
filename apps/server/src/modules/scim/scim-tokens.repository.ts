import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** SQL of the SCIM bearer tokens (hashes only); no rules here. */
export function scimTokensRepository(db: Kysely<Database>) {
  return {
    findLiveByHash: (hash: string) =>
      db
        .selectFrom('scim_token')
        .select(['id', 'name', 'created_by'])
        .where('token_hash', '=', hash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst(),
    touch: (id: string, at: Date) => db.updateTable('scim_token').set({ last_used_at: at }).where('id', '=', id).execute(),
    findLiveByName: (name: string) =>
      db
        .selectFrom('scim_token')
        .select('id')
        .where(sql`lower(name)`, '=', name.toLowerCase())
        .where('revoked_at', 'is', null)
        .executeTakeFirst(),
    insert: (t: { name: string; tokenHash: string; createdBy: string; now: Date }) =>
      db
        .insertInto('scim_token')
        .values({ name: t.name, token_hash: t.tokenHash, created_by: t.createdBy, created_at: t.now })
        .returning(['id', 'name', 'created_by', 'created_at', 'last_used_at', 'revoked_at'])
        .executeTakeFirstOrThrow(),
    list: () =>
      db
        .selectFrom('scim_token')
        .select(['id', 'name', 'created_by', 'created_at', 'last_used_at', 'revoked_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),
    revoke: (id: string, at: Date) =>
      db
        .updateTable('scim_token')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning(['id', 'name', 'created_by', 'created_at', 'last_used_at', 'revoked_at'])
        .executeTakeFirst(),
  };
}
