import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, DirectorySource, DirectoryUserTable } from '../../db/schema.js';
import { DIRECTORY_PREFIX_KEYS, DIRECTORY_SEARCH_TEXT, userSearchCondition } from '../../db/search-text.js';

/** How often a returning user's `last_seen_at` is refreshed (getuserinfo writes nothing in between). */
export const LAST_SEEN_RESOLUTION_MS = 60 * 60 * 1000;

export interface DirectoryUser {
  upn: string;
  displayName: string;
  email: string;
  /** null: never seen by the portal. */
  roles: string[] | null;
  lastSeenAt: Date | null;
  /** Where the user came from (SCIM, just-in-time, demo seed, sign-in); null for rows older than 0009. */
  source?: DirectorySource | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
  /** SCIM groups (filled by `find`). */
  groups?: string[];
}

const toDirectoryUser = (r: Selectable<DirectoryUserTable>): DirectoryUser => ({
  upn: r.upn,
  displayName: r.display_name,
  email: r.email,
  roles: r.roles,
  lastSeenAt: r.last_seen_at,
  source: r.source,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** How long this instance remembers that it recorded what one access token showed (see `upsertSeen`). */
export const SEEN_TOKEN_MEMORY_MS = 10 * 60 * 1000;
const SEEN_TOKEN_MEMORY_ENTRIES = 20_000;

/** SQL of `directory_user` (each user's roles as last seen); no rules here. */
export function directoryRepository(db: Kysely<Database>) {
  // upn -> what was recorded for which token, and when. The same token shown again carries nothing new,
  // so getuserinfo then makes no round trip for the directory; a new token, or a changed MFA status, does.
  const recorded = new Map<string, { key: string; at: number }>();
  return {
    /**
     * Records what a successful sign-in (getuserinfo) showed about the caller. Writes nothing when
     * nothing changed: the row is updated only when the name, e-mail or roles differ, or when
     * `last_seen_at` is older than {@link LAST_SEEN_RESOLUTION_MS} (a sign-in a day, not every page).
     */
    async upsertSeen(
      user: { upn: string; displayName: string; email: string; roles: readonly string[]; mfaStatus?: string },
      at: Date = new Date(),
      /** The access token's identity (e.g. its issue time): the same token within {@link SEEN_TOKEN_MEMORY_MS} is not recorded again. */
      token?: string,
    ) {
      const upn = user.upn.toLowerCase();
      const key = token === undefined ? null : JSON.stringify([token, user.displayName, user.email, user.roles, user.mfaStatus ?? null]);
      const memory = recorded.get(upn);
      if (key !== null && memory?.key === key && at.getTime() - memory.at < SEEN_TOKEN_MEMORY_MS) return;
      const values = {
        upn,
        display_name: user.displayName,
        email: user.email,
        roles: [...user.roles],
        last_seen_at: at,
        ...(user.mfaStatus ? { mfa_status: user.mfaStatus } : {}),
        source: 'sign_in' as const,
      };
      const stale = new Date(at.getTime() - LAST_SEEN_RESOLUTION_MS);
      await db
        .insertInto('directory_user')
        .values(values)
        .onConflict((oc) =>
          oc
            .column('upn')
            .doUpdateSet({
              display_name: values.display_name,
              email: values.email,
              roles: values.roles,
              last_seen_at: at,
              ...(user.mfaStatus ? { mfa_status: user.mfaStatus } : {}),
            })
            .where((eb) =>
              eb.or([
                ...(user.mfaStatus ? [eb('directory_user.mfa_status', 'is distinct from', user.mfaStatus)] : []),
                eb('directory_user.display_name', 'is distinct from', values.display_name),
                eb('directory_user.email', 'is distinct from', values.email),
                eb('directory_user.roles', 'is distinct from', sql<string[]>`${values.roles}::text[]`),
                eb('directory_user.last_seen_at', 'is', null),
                eb('directory_user.last_seen_at', '<', stale),
              ]),
            ),
        )
        .execute();
      if (key === null) return;
      recorded.delete(upn);
      recorded.set(upn, { key, at: at.getTime() });
      if (recorded.size > SEEN_TOKEN_MEMORY_ENTRIES) recorded.delete(recorded.keys().next().value!);
    },
    /**
     * Users whose sign-in name, e-mail or name contains `query` (three letters or digits in a row:
     * trigram index), or, for a shorter query, whose sign-in name, e-mail, name or surname starts with
     * it (prefix indexes); by sign-in name, after `afterUpn`. See db/search-text.ts.
     */
    search(query: string, afterUpn: string | null, limit: number) {
      let q = db.selectFrom('directory_user').selectAll();
      const matches = userSearchCondition(query, DIRECTORY_SEARCH_TEXT, DIRECTORY_PREFIX_KEYS);
      if (matches) q = q.where(matches);
      if (afterUpn !== null) q = q.where('upn', '>', afterUpn.toLowerCase());
      return q.orderBy('upn').limit(limit).execute();
    },
    /**
     * Adds or refreshes users known from elsewhere than a sign-in (the MFA provider's user list, SCIM):
     * name and e-mail only; roles stay as last seen at sign-in (null: never seen). Unchanged rows are
     * not written.
     */
    async upsertKnown(
      users: readonly { upn: string; displayName: string; email: string; mfaStatus?: string | null; mfaEnrolled?: boolean | undefined }[],
    ) {
      if (users.length === 0) return;
      const rows = new Map(
        users.map((u) => [
          u.upn.toLowerCase(),
          {
            upn: u.upn.toLowerCase(),
            display_name: u.displayName,
            email: u.email,
            mfa_status: u.mfaStatus ?? null,
            // Whether the provider says they have a device (Duo): what an enrolment campaign reads.
            mfa_enrolled: u.mfaEnrolled ?? null,
          },
        ]),
      );
      await db
        .insertInto('directory_user')
        .values([...rows.values()])
        .onConflict((oc) =>
          oc
            .column('upn')
            .doUpdateSet((eb) => ({
              display_name: eb.ref('excluded.display_name'),
              email: eb.ref('excluded.email'),
              mfa_status: sql<string | null>`coalesce(excluded.mfa_status, directory_user.mfa_status)`,
              mfa_enrolled: sql<boolean | null>`coalesce(excluded.mfa_enrolled, directory_user.mfa_enrolled)`,
            }))
            .where((eb) =>
              eb.or([
                eb('directory_user.display_name', 'is distinct from', eb.ref('excluded.display_name')),
                eb('directory_user.email', 'is distinct from', eb.ref('excluded.email')),
                eb.and([
                  eb('excluded.mfa_status', 'is not', null),
                  eb('directory_user.mfa_status', 'is distinct from', eb.ref('excluded.mfa_status')),
                ]),
                eb.and([
                  eb('excluded.mfa_enrolled', 'is not', null),
                  eb('directory_user.mfa_enrolled', 'is distinct from', eb.ref('excluded.mfa_enrolled')),
                ]),
              ]),
            ),
        )
        .execute();
    },
    async find(upn: string): Promise<DirectoryUser | null> {
      const row = await db.selectFrom('directory_user').selectAll().where('upn', '=', upn.toLowerCase()).executeTakeFirst();
      if (!row) return null;
      const groups = await db
        .selectFrom('scim_group_member as m')
        .innerJoin('scim_group as g', 'g.id', 'm.group_id')
        .innerJoin('scim_user as u', 'u.id', 'm.user_id')
        .select('g.display_name')
        .where(sql<string>`lower(u.user_name)`, '=', row.upn)
        .orderBy('g.display_name')
        .execute();
      return { ...toDirectoryUser(row), groups: groups.map((g) => g.display_name) };
    },
    async findMany(upns: readonly string[]): Promise<Map<string, DirectoryUser>> {
      if (upns.length === 0) return new Map();
      const rows = await db
        .selectFrom('directory_user')
        .selectAll()
        .where(
          'upn',
          'in',
          upns.map((u) => u.toLowerCase()),
        )
        .execute();
      return new Map(rows.map((r) => [r.upn, toDirectoryUser(r)]));
    },
  };
}

export type DirectoryRepository = ReturnType<typeof directoryRepository>;
