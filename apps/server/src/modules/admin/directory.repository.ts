import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface DirectoryUser {
  upn: string;
  displayName: string;
  email: string;
  /** null: never seen by the portal. */
  roles: string[] | null;
  lastSeenAt: Date | null;
}

/** SQL of `directory_user` (each user's roles as last seen); no rules here. */
export function directoryRepository(db: Kysely<Database>) {
  return {
    /** Records what a successful sign-in (getuserinfo) showed about the caller. */
    async upsertSeen(user: { upn: string; displayName: string; email: string; roles: readonly string[] }, at: Date = new Date()) {
      const values = {
        upn: user.upn.toLowerCase(),
        display_name: user.displayName,
        email: user.email,
        roles: [...user.roles],
        last_seen_at: at,
      };
      await db
        .insertInto('directory_user')
        .values(values)
        .onConflict((oc) =>
          oc.column('upn').doUpdateSet({ display_name: values.display_name, email: values.email, roles: values.roles, last_seen_at: at }),
        )
        .execute();
    },
    async find(upn: string): Promise<DirectoryUser | null> {
      const row = await db.selectFrom('directory_user').selectAll().where('upn', '=', upn.toLowerCase()).executeTakeFirst();
      return row ? { upn: row.upn, displayName: row.display_name, email: row.email, roles: row.roles, lastSeenAt: row.last_seen_at } : null;
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
      return new Map(
        rows.map((r) => [r.upn, { upn: r.upn, displayName: r.display_name, email: r.email, roles: r.roles, lastSeenAt: r.last_seen_at }]),
      );
    },
  };
}

export type DirectoryRepository = ReturnType<typeof directoryRepository>;
