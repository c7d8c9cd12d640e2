import { sql, type Kysely, type Selectable } from 'kysely';
import type { AuditEventTable, Database } from '../../db/schema.js';
import { escapeLike } from '../../db/like.js';
import { AUDIT_ACTOR_NAME, AUDIT_TARGET_NAME, auditNameCondition } from '../../db/search-text.js';

export type AuditRow = Selectable<AuditEventTable>;

/**
 * Filters of the audit log (all optional): `actor` and `target` are whole sign-in names (the rules that
 * look for "this member's own check of this person" need exactly that person); `actorLike` and
 * `targetLike` are part of a name, for people searching the log (see `auditNameCondition`); `action` is
 * one action, or a prefix when it ends in `.*`.
 */
export interface AuditFilter {
  actor?: string;
  target?: string;
  actorLike?: string;
  targetLike?: string;
  action?: string;
  outcome?: 'success' | 'failure';
  from?: Date;
  to?: Date;
}

/** SQL of the audit log; no rules here. Pass a transaction as `db` to run inside it. */
export function auditRepository(db: Kysely<Database>) {
  return {
    /**
     * The chain head, locked until the transaction ends (one appender at a time), and the next event's
     * id, drawn once the lock is held so that ids follow the chain's order. Every appender waits while
     * the lock is held, so the append makes two round trips under it: this one, and
     * {@link appendAndMoveHead}.
     */
    async lockHeadForAppend(): Promise<{ hash: string; nextId: number } | undefined> {
      const { rows } = await sql<{ hash: string; next_id: string }>`
        with head as materialized (select hash from audit_head where id = 1 for update)
        select head.hash, nextval(pg_get_serial_sequence('audit_event', 'id'))::text as next_id from head`.execute(db);
      const head = rows[0];
      return head && { hash: head.hash, nextId: Number(head.next_id) };
    },
    readHead() {
      return db.selectFrom('audit_head').select(['hash', 'last_event_id']).where('id', '=', 1).executeTakeFirst();
    },
    /** Inserts the event and moves the locked head to it, in one statement. */
    appendAndMoveHead(row: Omit<AuditRow, 'details'> & { details: string | null }) {
      return db
        .with('appended', (q) => q.insertInto('audit_event').values(row))
        .updateTable('audit_head')
        .set({ hash: row.hash, last_event_id: row.id, updated_at: row.occurred_at })
        .where('id', '=', 1)
        .execute();
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
      if (f.actorLike) q = q.where(auditNameCondition(f.actorLike, AUDIT_ACTOR_NAME));
      if (f.targetLike) q = q.where(auditNameCondition(f.targetLike, AUDIT_TARGET_NAME));
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
