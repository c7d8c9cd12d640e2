import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, NotificationOutboxTable, NotificationState } from '../../db/schema.js';

export type OutboxRow = Selectable<NotificationOutboxTable>;

export interface NewOutboxRow {
  auditEventId: number | null;
  kind: string;
  targetUpn: string | null;
  recipient: string | null;
  params: Record<string, unknown>;
  at: Date;
}

/** SQL of the notification outbox; no rules here. Pass a transaction as `db` to write inside it. */
export function notificationsRepository(db: Kysely<Database>) {
  return {
    enqueue(row: NewOutboxRow) {
      return db
        .insertInto('notification_outbox')
        .values({
          audit_event_id: row.auditEventId,
          kind: row.kind,
          target_upn: row.targetUpn,
          recipient: row.recipient,
          params: JSON.stringify(row.params),
          next_attempt_at: row.at,
          created_at: row.at,
        })
        .execute();
    },

    /**
     * Claims up to `limit` due rows for `leaseMs`: their next attempt moves past the lease and their
     * attempt count goes up, in one short transaction; rows another instance holds are skipped
     * (FOR UPDATE SKIP LOCKED). A claim whose sender dies is retried once the lease ends.
     */
    async claimDue(now: Date, limit: number, leaseMs: number): Promise<OutboxRow[]> {
      return db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom('notification_outbox')
          .select('id')
          .where('state', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(limit)
          .forUpdate()
          .skipLocked()
          .execute();
        if (due.length === 0) return [];
        return trx
          .updateTable('notification_outbox')
          .set({ attempts: sql`attempts + 1`, next_attempt_at: new Date(now.getTime() + leaseMs) })
          .where(
            'id',
            'in',
            due.map((r) => r.id),
          )
          .returningAll()
          .execute();
      });
    },

    markSent(id: number, at: Date) {
      return db.updateTable('notification_outbox').set({ state: 'sent', sent_at: at, last_error: null }).where('id', '=', id).execute();
    },

    markFailedAttempt(id: number, error: string, next: Date | null) {
      return db
        .updateTable('notification_outbox')
        .set(next ? { last_error: error, next_attempt_at: next } : { last_error: error, state: 'failed' })
        .where('id', '=', id)
        .execute();
    },

    async countsByState(): Promise<Record<NotificationState, number>> {
      const rows = await db
        .selectFrom('notification_outbox')
        .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('state')
        .execute();
      const counts = { pending: 0, sent: 0, failed: 0 };
      for (const r of rows) counts[r.state] = Number(r.n);
      return counts;
    },

    recent(limit: number, state?: NotificationState) {
      let q = db.selectFrom('notification_outbox').selectAll();
      if (state) q = q.where('state', '=', state);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
  };
}
