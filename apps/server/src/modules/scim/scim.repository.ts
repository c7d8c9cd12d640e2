import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ScimGroupTable, ScimUserTable } from '../../db/schema.js';
import type { ScimUserRecord } from './scim-users.model.js';
import { scimMirrorRepository } from './scim-mirror.repository.js';

export type { ForeignAccount } from './scim-mirror.repository.js';

/** SQL of the SCIM resources (their mirror in `directory_user` and `idp_account`: scim-mirror.repository.ts); no rules here. Pass a transaction as `db`. */

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
    addresses: r.addresses ?? [],
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

const userRow = (u: UserColumns, now: Date) => ({
  user_name: u.userName,
  external_id: u.externalId,
  active: u.active,
  display_name: u.displayName,
  given_name: u.givenName,
  family_name: u.familyName,
  formatted_name: u.formattedName,
  emails: JSON.stringify(u.emails),
  addresses: JSON.stringify(u.addresses),
  roles: u.roles === null ? null : JSON.stringify(u.roles),
  updated_at: now,
});

export function scimRepository(db: Kysely<Database>) {
  return {
    // --- the directory and the embedded identity provider's accounts ---
    ...scimMirrorRepository(db),

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
  };
}

export type ScimRepository = ReturnType<typeof scimRepository>;
