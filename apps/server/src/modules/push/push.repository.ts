import { sql, type Insertable, type Kysely } from 'kysely';
import type { PushStateName } from '@mfa-portal/shared';
import type { Database, PushTransactionTable } from '../../db/schema.js';

/** SQL of the push transactions (`push_transaction`) the portal started through the MFA provider. */
export function pushRepository(db: Kysely<Database>) {
  return {
    insert(values: Insertable<PushTransactionTable>) {
      return db.insertInto('push_transaction').values(values).returningAll().executeTakeFirstOrThrow();
    },

    /** The push of this user and purpose (and device, and starter, when given). */
    find(where: {
      id: string;
      upn: string;
      purpose: PushTransactionTable['purpose'];
      deviceId?: string;
      actorUpn?: string;
      session?: string;
    }) {
      let q = db
        .selectFrom('push_transaction')
        .selectAll()
        .where('id', '=', where.id)
        .where('upn', '=', where.upn)
        .where('purpose', '=', where.purpose);
      if (where.deviceId !== undefined) q = q.where('device_id', '=', where.deviceId);
      if (where.actorUpn !== undefined) q = q.where('actor_upn', '=', where.actorUpn);
      if (where.session !== undefined) q = q.where('session_key', '=', where.session);
      return q.executeTakeFirst();
    },

    /** The push of this user, whatever its purpose (and of this session, when given). */
    findAnyPurpose(where: { id: string; upn: string; session?: string }) {
      let q = db.selectFrom('push_transaction').selectAll().where('id', '=', where.id).where('upn', '=', where.upn);
      if (where.session !== undefined) q = q.where('session_key', '=', where.session);
      return q.executeTakeFirst();
    },

    /** The user's pushes started before `before` (ended long since): a working table, not a history (the audit log is). */
    deleteStartedBefore(upn: string, before: Date) {
      return db.deleteFrom('push_transaction').where('upn', '=', upn).where('started_at', '<', before).execute();
    },

    /** Every push of the account, whatever the case its name was stored in. */
    deleteAccount(upn: string) {
      return db
        .deleteFrom('push_transaction')
        .where(sql<boolean>`lower(upn) = ${upn.toLowerCase()}`)
        .execute();
    },

    get(id: string) {
      return db.selectFrom('push_transaction').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    },

    /** Marks a waiting push answered; only the first completion wins (a concurrent poll finds nothing to update). */
    complete(id: string, state: PushStateName, now: Date) {
      return db
        .updateTable('push_transaction')
        .set({ state, completed_at: now })
        .where('id', '=', id)
        .where('state', '=', 'waiting')
        .returningAll()
        .executeTakeFirst();
    },
  };
}
