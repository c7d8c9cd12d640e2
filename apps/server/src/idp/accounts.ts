import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, IdpAccountTable } from '../db/schema.js';

export type IdpAccount = Selectable<IdpAccountTable>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The embedded directory's SQL (no rules here). Usernames match case-insensitively. */
export function accountsRepository(db: Kysely<Database>) {
  return {
    findById(id: string): Promise<IdpAccount | undefined> {
      // `id` is a uuid column: anything else cannot match (and must not reach PostgreSQL as a uuid).
      if (!UUID.test(id)) return Promise.resolve(undefined);
      return db.selectFrom('idp_account').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findByUsername(username: string): Promise<IdpAccount | undefined> {
      return db
        .selectFrom('idp_account')
        .selectAll()
        .where(sql<string>`lower(username)`, '=', username.trim().toLowerCase())
        .executeTakeFirst();
    },
  };
}

export type AccountsRepository = ReturnType<typeof accountsRepository>;

/**
 * The identity claims of an account, shaped like Entra ID's: the sign-in name is `upn` (and
 * `preferred_username`, which MSAL shows), app roles are `roles`.
 */
export function identityClaims(account: IdpAccount) {
  const upn = account.username.toLowerCase();
  return {
    upn,
    preferred_username: upn,
    email: account.email,
    given_name: account.given_name,
    family_name: account.family_name,
    name: `${account.given_name} ${account.family_name}`.trim(),
    roles: [...account.roles],
  };
}
