import { sql, type Kysely, type Selectable } from 'kysely';
import { isUserText } from '@mfa-portal/shared';
import type { Database, IdpAccountTable } from '../db/schema.js';

export type IdpAccount = Selectable<IdpAccountTable>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Roles an account gets from the directory (SCIM), besides those stored with it. */
export type DirectoryRoles = (username: string) => Promise<string[]>;

/** The embedded directory's SQL (no rules here). Usernames match case-insensitively. */
export function accountsRepository(db: Kysely<Database>, directoryRoles?: DirectoryRoles) {
  return {
    async findById(id: string): Promise<IdpAccount | undefined> {
      // `id` is a uuid column: anything else cannot match (and must not reach PostgreSQL as a uuid).
      if (!UUID.test(id)) return undefined;
      const account = await db.selectFrom('idp_account').selectAll().where('id', '=', id).executeTakeFirst();
      if (!account || !directoryRoles) return account;
      return { ...account, roles: [...new Set([...account.roles, ...(await directoryRoles(account.username))])] };
    },
    async findByUsername(username: string): Promise<IdpAccount | undefined> {
      if (!isUserText(username)) return undefined;
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

/**
 * Roles from SCIM, as Entra puts app roles in tokens: the user's SCIM `roles` values, and the helpdesk
 * and Solution Administrator roles for members of the SCIM groups named in configuration
 * (SCIM_GROUP_HELPDESK, SCIM_GROUP_SOLUTION_ADMIN). Null when SCIM does not know the user at all; an
 * inactive SCIM user has none.
 */
export function scimRolesOf(
  db: Kysely<Database>,
  groups: { helpdesk: string | null; solutionAdmin: string | null },
  roleNames: { helpdesk: string; solutionAdmin: string },
): (username: string) => Promise<string[] | null> {
  return async (username) => {
    const user = await db
      .selectFrom('scim_user')
      .select(['id', 'roles', 'active'])
      .where(sql<string>`lower(user_name)`, '=', username.toLowerCase())
      .executeTakeFirst();
    if (!user) return null;
    if (!user.active) return [];
    const groupNames = (
      await db
        .selectFrom('scim_group_member as m')
        .innerJoin('scim_group as g', 'g.id', 'm.group_id')
        .select('g.display_name')
        .where('m.user_id', '=', user.id)
        .execute()
    ).map((g) => g.display_name.toLowerCase());
    const roles = (user.roles ?? []).map((r) => r.value);
    if (groups.helpdesk && groupNames.includes(groups.helpdesk.toLowerCase())) roles.push(roleNames.helpdesk);
    if (groups.solutionAdmin && groupNames.includes(groups.solutionAdmin.toLowerCase())) roles.push(roleNames.solutionAdmin);
    return roles;
  };
}

/** The roles SCIM gives a user, added to an embedded account's own at sign-in (none when SCIM does not know them). */
export function scimDirectoryRoles(
  db: Kysely<Database>,
  groups: { helpdesk: string | null; solutionAdmin: string | null },
  roleNames: { helpdesk: string; solutionAdmin: string },
): DirectoryRoles {
  const rolesOf = scimRolesOf(db, groups, roleNames);
  return async (username) => (await rolesOf(username)) ?? [];
}
