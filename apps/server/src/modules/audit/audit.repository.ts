import { sql, type Kysely, type Selectable } from 'kysely';
import type { AuditEventTable, Database } from '../../db/schema.js';
import { escapeLike } from '../../db/like.js';

export type AuditRow = Selectable<AuditEventTable>;

/** Filters of the audit log (all optional; `action` ending in `.*` matches a prefix). */
export interface AuditFilter {
  actor?: string;
  target?: string;
  action?: string;
  outcome?: 'success' | 'failure';
  from?: Date;
  to?: Date;
}

/** SQL of the audit log; no rules here. Pass a transaction as `db` to run inside it. */
export function auditRepository(db: Kysely<Database>) {
  return {
    /** The chain head, locked until the transaction ends: one appender at a time. */
    lockHead() {
      return db.selectFrom('audit_head').select(['hash', 'last_event_id']).where('id', '=', 1).forUpdate().executeTakeFirst();
    },
    readHead() {
      return db.selectFrom('audit_head').select(['hash', 'last_event_id']).where('id', '=', 1).executeTakeFirst();
    },
    async nextId(): Promise<number> {
      const { rows } = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('audit_event', 'id')) as id`.execute(db);
      return Number(rows[0]!.id);
    },
    insert(row: Omit<AuditRow, 'details'> & { details: string | null }) {
      return db.insertInto('audit_event').values(row).execute();
    },
    setHead(hash: string, lastEventId: number, at: Date) {
      return db.updateTable('audit_head').set({ hash, last_event_id: lastEventId, updated_at: at }).where('id', '=', 1).execute();
    },
    /** Rows in chain order after `afterId` (exclusive), at most `limit`. */
    page(afterId: number, limit: number) {
      return db.selectFrom('audit_event').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
    },
    /** Rows in chain order after `afterId` (exclusive) up to `upToId` (inclusive), at most `limit`. */
    pageUpTo(afterId: number, upToId: number, limit: number) {
      return db
        .selectFrom('audit_event')
        .selectAll()
        .where('id', '>', afterId)
        .where('id', '<=', upToId)
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    /** How many events lie after `afterId` up to `upToId` (an index-only count). */
    async countBetween(afterId: number, upToId: number): Promise<number> {
      const row = await db
        .selectFrom('audit_event')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('id', '>', afterId)
        .where('id', '<=', upToId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    eventHash(id: number) {
      return db.selectFrom('audit_event').select(['id', 'hash']).where('id', '=', id).executeTakeFirst();
    },
    /** The latest checkpoint at or before `upToId`: the chain up to it was found intact. */
    latestCheckpoint(upToId: number) {
      return db
        .selectFrom('audit_checkpoint')
        .selectAll()
        .where('last_event_id', '<=', upToId)
        .orderBy('last_event_id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
    insertCheckpoint(lastEventId: number, hash: string, eventCount: number) {
      return db.insertInto('audit_checkpoint').values({ last_event_id: lastEventId, hash, event_count: eventCount }).execute();
    },
    /** Events matching every given filter, newest first, before `beforeId`. */
    search(f: AuditFilter, beforeId: number | null, limit: number) {
      let q = db.selectFrom('audit_event').selectAll();
      if (f.actor) q = q.where(sql`lower(actor_upn)`, '=', f.actor.toLowerCase());
      if (f.target) q = q.where(sql`lower(target_upn)`, '=', f.target.toLowerCase());
      if (f.action)
        q = f.action.endsWith('.*')
          ? q.where('action', 'like', `${escapeLike(f.action.slice(0, -2))}.%`)
          : q.where('action', '=', f.action);
      if (f.outcome) q = q.where('outcome', '=', f.outcome);
      if (f.from) q = q.where('occurred_at', '>=', f.from);
      if (f.to) q = q.where('occurred_at', '<', f.to);
      if (beforeId !== null) q = q.where('id', '<', beforeId);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
    /** Events where the user is the target or the actor, newest first, before `beforeId`. */
    forUser(upn: string, beforeId: number | null, limit: number) {
      let q = db
        .selectFrom('audit_event')
        .selectAll()
        .where((eb) => eb.or([eb('target_upn', '=', upn), eb('actor_upn', '=', upn)]));
      if (beforeId !== null) q = q.where('id', '<', beforeId);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
  };
}
