import { sql, type Kysely } from 'kysely';
import type { Database, DirectorySource } from '../../db/schema.js';

/**
 * SQL of what mirrors a SCIM user outside the SCIM tables: the `directory_user` row the portal's
 * policy and screens read, and the embedded identity provider's `idp_account`; no rules here. Part of
 * `scimRepository`; pass a transaction as `db`.
 */

/** An account SCIM does not manage, as the directory and the embedded identity provider hold it. */
export interface ForeignAccount {
  upn: string;
  directory: {
    source: DirectorySource | null;
    roles: string[] | null;
    displayName: string;
    email: string;
    /** The MFA provider's status as last seen; null: no MFA account known. */
    mfaStatus: string | null;
  } | null;
  idp: { roles: string[]; email: string; givenName: string; familyName: string } | null;
}

export function scimMirrorRepository(db: Kysely<Database>) {
  return {
    /**
     * The account named `userName` in the directory or the embedded identity provider, when either holds
     * one (a SCIM user's own rows included: ask `findUserByUserName` first). The directory row is locked,
     * so two requests cannot take over one account at once.
     */
    async findAccount(userName: string): Promise<ForeignAccount | null> {
      const upn = userName.trim().toLowerCase();
      const dir = await db
        .selectFrom('directory_user')
        .select(['source', 'roles', 'display_name', 'email', 'mfa_status'])
        .where('upn', '=', upn)
        .forUpdate()
        .executeTakeFirst();
      const idp = await db
        .selectFrom('idp_account')
        .select(['roles', 'email', 'given_name', 'family_name'])
        .where(sql`lower(username)`, '=', upn)
        .executeTakeFirst();
      if (!dir && !idp) return null;
      return {
        upn,
        directory: dir
          ? { source: dir.source, roles: dir.roles, displayName: dir.display_name, email: dir.email, mfaStatus: dir.mfa_status }
          : null,
        idp: idp ? { roles: idp.roles, email: idp.email, givenName: idp.given_name, familyName: idp.family_name } : null,
      };
    },

    // --- the directory the portal's policy and screens read ---
    /** `provisioned`: SCIM creates or takes over the user now (kept when already set). */
    async upsertDirectory(
      d: { upn: string; displayName: string; email: string; roles?: string[] },
      source: DirectorySource,
      now: Date,
      opts: { provisioned?: boolean } = {},
    ) {
      const upn = d.upn.toLowerCase();
      await db
        .insertInto('directory_user')
        .values({
          upn,
          display_name: d.displayName,
          email: d.email,
          roles: d.roles ?? null,
          source,
          created_at: now,
          updated_at: now,
          provisioned_at: opts.provisioned ? now : null,
        })
        .onConflict((oc) =>
          oc.column('upn').doUpdateSet({
            display_name: d.displayName,
            email: d.email,
            ...(d.roles ? { roles: d.roles } : {}),
            source: sql`coalesce(directory_user.source, ${source})`,
            ...(opts.provisioned ? { provisioned_at: sql`coalesce(directory_user.provisioned_at, ${now})` } : {}),
            updated_at: now,
          }),
        )
        .execute();
    },
    /** Records when SCIM took over the user, unless known already. */
    markProvisioned: (upn: string, now: Date) =>
      db
        .updateTable('directory_user')
        .set({ provisioned_at: sql`coalesce(provisioned_at, ${now})` })
        .where('upn', '=', upn.toLowerCase())
        .execute(),
    async renameDirectory(from: string, to: string) {
      if (from.toLowerCase() === to.toLowerCase()) return;
      await db.deleteFrom('directory_user').where('upn', '=', to.toLowerCase()).execute();
      await db.updateTable('directory_user').set({ upn: to.toLowerCase() }).where('upn', '=', from.toLowerCase()).execute();
    },
    deleteEnrolmentPasses: (upn: string) => db.deleteFrom('enrolment_pass').where('upn', '=', upn.toLowerCase()).execute(),
    deleteDirectory: (upn: string) => db.deleteFrom('directory_user').where('upn', '=', upn.toLowerCase()).execute(),

    // --- the embedded identity provider's accounts (a SCIM password signs the user in there) ---
    async upsertIdpAccount(a: { username: string; passwordHash?: string; email: string; givenName: string; familyName: string }) {
      const existing = await db
        .selectFrom('idp_account')
        .select('id')
        .where(sql`lower(username)`, '=', a.username.toLowerCase())
        .executeTakeFirst();
      const profile = { email: a.email, given_name: a.givenName, family_name: a.familyName };
      if (existing) {
        await db
          .updateTable('idp_account')
          .set({ ...profile, ...(a.passwordHash ? { password_hash: a.passwordHash } : {}) })
          .where('id', '=', existing.id)
          .execute();
      } else if (a.passwordHash) {
        await db
          .insertInto('idp_account')
          .values({ username: a.username.toLowerCase(), password_hash: a.passwordHash, ...profile, roles: [] })
          .execute();
      }
    },
    async renameIdpAccount(from: string, to: string) {
      await db
        .updateTable('idp_account')
        .set({ username: to.toLowerCase() })
        .where(sql`lower(username)`, '=', from.toLowerCase())
        .execute();
    },
    deleteIdpAccount: (username: string) =>
      db
        .deleteFrom('idp_account')
        .where(sql`lower(username)`, '=', username.toLowerCase())
        .execute(),
  };
}
