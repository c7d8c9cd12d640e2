import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, DirectorySource, ScimGroupTable, ScimUserTable } from '../../db/schema.js';
import type { ScimUserRecord } from './scim-users.model.js';

/** SQL of the SCIM resources and of their mirror in `directory_user` and `idp_account`; no rules here. Pass a transaction as `db`. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string) => UUID.test(id);

export interface ScimGroupRecord {
  id: string;
  displayName: string;
  externalId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function toUserRecord(r: Selectable<ScimUserTable>): ScimUserRecord {
  return {
    id: r.id,
    userName: r.user_name,
    externalId: r.external_id,
    active: r.active,
    displayName: r.display_name,
    givenName: r.given_name,
    familyName: r.family_name,
    formattedName: r.formatted_name,
    emails: r.emails ?? [],
    roles: r.roles,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    adoptedAt: r.adopted_at ? new Date(r.adopted_at) : null,
  };
}

const toGroupRecord = (r: Selectable<ScimGroupTable>): ScimGroupRecord => ({
  id: r.id,
  displayName: r.display_name,
  externalId: r.external_id,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export type UserColumns = Omit<ScimUserRecord, 'id' | 'createdAt' | 'updatedAt' | 'adoptedAt'>;

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

const userRow = (u: UserColumns, now: Date) => ({
  user_name: u.userName,
  external_id: u.externalId,
  active: u.active,
  display_name: u.displayName,
  given_name: u.givenName,
  family_name: u.familyName,
  formatted_name: u.formattedName,
  emails: JSON.stringify(u.emails),
  roles: u.roles === null ? null : JSON.stringify(u.roles),
  updated_at: now,
});

export function scimRepository(db: Kysely<Database>) {
  return {
    // --- users ---
    async findUser(id: string, opts: { lock?: boolean } = {}) {
      if (!isUuid(id)) return undefined;
      let q = db.selectFrom('scim_user').selectAll().where('id', '=', id);
      if (opts.lock) q = q.forUpdate();
      const row = await q.executeTakeFirst();
      return row ? toUserRecord(row) : undefined;
    },
    async findUserByUserName(userName: string) {
      const row = await db
        .selectFrom('scim_user')
        .selectAll()
        .where(sql`lower(user_name)`, '=', userName.toLowerCase())
        .executeTakeFirst();
      return row ? toUserRecord(row) : undefined;
    },
    async findUsersBy(attr: 'userName' | 'externalId' | 'id', value: string) {
      if (attr === 'id' && !isUuid(value)) return [];
      let q = db.selectFrom('scim_user').selectAll();
      q =
        attr === 'userName'
          ? q.where(sql`lower(user_name)`, '=', value.toLowerCase())
          : attr === 'externalId'
            ? q.where('external_id', '=', value)
            : q.where('id', '=', value);
      return (await q.orderBy('created_at').orderBy('id').execute()).map(toUserRecord);
    },
    async listUsers() {
      return (await db.selectFrom('scim_user').selectAll().orderBy('created_at').orderBy('id').execute()).map(toUserRecord);
    },
    async insertUser(u: UserColumns, now: Date, opts: { adopted?: boolean } = {}) {
      const row = await db
        .insertInto('scim_user')
        .values({ ...userRow(u, now), created_at: now, adopted_at: opts.adopted ? now : null })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUserRecord(row);
    },
    async updateUser(id: string, u: UserColumns, now: Date) {
      const row = await db.updateTable('scim_user').set(userRow(u, now)).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      return toUserRecord(row);
    },
    deleteUser: (id: string) => db.deleteFrom('scim_user').where('id', '=', id).execute(),
    async groupsOfUser(userId: string) {
      return db
        .selectFrom('scim_group_member as m')
        .innerJoin('scim_group as g', 'g.id', 'm.group_id')
        .select(['g.id as id', 'g.display_name as displayName'])
        .where('m.user_id', '=', userId)
        .orderBy('g.display_name')
        .execute();
    },
    /** Display names of the groups whose member is the user named `userName`. */
    async groupNamesOfUserName(userName: string) {
      const rows = await db
        .selectFrom('scim_group_member as m')
        .innerJoin('scim_group as g', 'g.id', 'm.group_id')
        .innerJoin('scim_user as u', 'u.id', 'm.user_id')
        .select('g.display_name')
        .where(sql`lower(u.user_name)`, '=', userName.toLowerCase())
        .execute();
      return rows.map((r) => r.display_name);
    },

    // --- groups ---
    async findGroup(id: string, opts: { lock?: boolean } = {}) {
      if (!isUuid(id)) return undefined;
      let q = db.selectFrom('scim_group').selectAll().where('id', '=', id);
      if (opts.lock) q = q.forUpdate();
      const row = await q.executeTakeFirst();
      return row ? toGroupRecord(row) : undefined;
    },
    async findGroupByName(displayName: string) {
      const row = await db
        .selectFrom('scim_group')
        .selectAll()
        .where(sql`lower(display_name)`, '=', displayName.toLowerCase())
        .executeTakeFirst();
      return row ? toGroupRecord(row) : undefined;
    },
    async listGroups() {
      return (await db.selectFrom('scim_group').selectAll().orderBy('created_at').orderBy('id').execute()).map(toGroupRecord);
    },
    async insertGroup(g: { displayName: string; externalId: string | null }, now: Date) {
      const row = await db
        .insertInto('scim_group')
        .values({ display_name: g.displayName, external_id: g.externalId, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toGroupRecord(row);
    },
    async updateGroup(id: string, g: { displayName: string; externalId: string | null }, now: Date) {
      const row = await db
        .updateTable('scim_group')
        .set({ display_name: g.displayName, external_id: g.externalId, updated_at: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toGroupRecord(row);
    },
    deleteGroup: (id: string) => db.deleteFrom('scim_group').where('id', '=', id).execute(),
    /** Members of the given groups (all groups when omitted), with their userName, by group. */
    async membersOf(groupIds?: readonly string[]) {
      if (groupIds && groupIds.length === 0) return [];
      let q = db
        .selectFrom('scim_group_member as m')
        .innerJoin('scim_user as u', 'u.id', 'm.user_id')
        .select(['m.group_id as groupId', 'u.id as userId', 'u.user_name as userName']);
      if (groupIds) q = q.where('m.group_id', 'in', groupIds);
      return q.orderBy('u.user_name').execute();
    },
    async existingUserIds(ids: readonly string[]) {
      const valid = ids.filter(isUuid);
      if (valid.length === 0) return new Set<string>();
      const rows = await db.selectFrom('scim_user').select('id').where('id', 'in', valid).execute();
      return new Set(rows.map((r) => r.id));
    },
    async setMembers(groupId: string, userIds: readonly string[]) {
      await db.deleteFrom('scim_group_member').where('group_id', '=', groupId).execute();
      if (userIds.length > 0)
        await db
          .insertInto('scim_group_member')
          .values(userIds.map((user_id) => ({ group_id: groupId, user_id })))
          .execute();
    },

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

export type ScimRepository = ReturnType<typeof scimRepository>;
