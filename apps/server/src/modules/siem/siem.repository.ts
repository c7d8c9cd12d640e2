import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, SiemStreamName, SiemStreamTable } from '../../db/schema.js';
import type { AuditRow } from '../audit/audit.repository.js';

export type SiemStreamRow = Selectable<SiemStreamTable>;

/** SQL of the SIEM outbox and its streams' state; no rules here. Pass a transaction as `db` to write inside it. */
export function siemRepository(db: Kysely<Database>) {
  return {
    /** One row per stream for an audit event (called inside the event's transaction). */
    enqueue(streams: readonly SiemStreamName[], auditEventId: number, at: Date) {
      return db
        .insertInto('siem_outbox')
        .values(streams.map((stream) => ({ stream, audit_event_id: auditEventId, created_at: at })))
        .execute();
    },

    /**
     * Takes (or renews) the stream's lease until `until` when nobody else holds it: one statement, so two
     * instances racing for it cannot both win. Returns the stream's state, or undefined when another holds it.
     */
    claimLease(stream: SiemStreamName, owner: string, now: Date, until: Date) {
      return db
        .updateTable('siem_stream')
        .set({ lease_owner: owner, lease_until: until })
        .where('stream', '=', stream)
        .where((eb) => eb.or([eb('lease_owner', '=', owner), eb('lease_owner', 'is', null), eb('lease_until', '<', now)]))
        .returningAll()
        .executeTakeFirst();
    },

    releaseLease(stream: SiemStreamName, owner: string) {
      return db
        .updateTable('siem_stream')
        .set({ lease_owner: null, lease_until: null })
        .where('stream', '=', stream)
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** The oldest events still to send, in chain order, as the audit log stores them. */
    pending(stream: SiemStreamName, limit: number): Promise<AuditRow[]> {
      return db
        .selectFrom('siem_outbox as o')
        .innerJoin('audit_event as e', 'e.id', 'o.audit_event_id')
        .selectAll('e')
        .where('o.stream', '=', stream)
        .where('o.delivered_at', 'is', null)
        .orderBy('o.audit_event_id')
        .limit(limit)
        .execute();
    },

    /** The events are delivered: marked (or removed, when delivered rows are not kept), and the stream's failures reset. */
    markDelivered(stream: SiemStreamName, ids: readonly number[], at: Date, opts: { keep: boolean }) {
      return db.transaction().execute(async (trx) => {
        if (opts.keep) {
          await trx
            .updateTable('siem_outbox')
            .set({ delivered_at: at, last_error: null })
            .where('stream', '=', stream)
            .where('audit_event_id', 'in', [...ids])
            .execute();
        } else {
          await trx
            .deleteFrom('siem_outbox')
            .where('stream', '=', stream)
            .where('audit_event_id', 'in', [...ids])
            .execute();
        }
        await trx
          .updateTable('siem_stream')
          .set({ failures: 0, next_attempt_at: null, last_delivered_at: at, last_delivered_event_id: Math.max(...ids) })
          .where('stream', '=', stream)
          .execute();
      });
    },

    /** An attempt failed: the events stay pending, the stream waits until `next`. */
    recordFailure(stream: SiemStreamName, ids: readonly number[], error: string, at: Date, next: Date) {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('siem_outbox')
          .set({ attempts: sql`attempts + 1`, last_error: error })
          .where('stream', '=', stream)
          .where('audit_event_id', 'in', [...ids])
          .execute();
        await trx
          .updateTable('siem_stream')
          .set({ failures: sql`failures + 1`, next_attempt_at: next, last_error: error, last_error_at: at })
          .where('stream', '=', stream)
          .execute();
      });
    },

    /** How many events wait, and when the oldest was written. */
    async backlog(stream: SiemStreamName): Promise<{ count: number; oldest: Date | null }> {
      const row = await db
        .selectFrom('siem_outbox')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where('stream', '=', stream)
        .where('delivered_at', 'is', null)
        .executeTakeFirstOrThrow();
      const oldest = row.oldest as Date | string | null;
      return { count: Number(row.n), oldest: oldest === null ? null : new Date(oldest) };
    },

    /** Removes up to `limit` rows delivered before `before`; returns how many. */
    async pruneDelivered(stream: SiemStreamName, before: Date, limit: number): Promise<number> {
      const result = await db
        .deleteFrom('siem_outbox')
        .where('stream', '=', stream)
        .where('audit_event_id', 'in', (eb) =>
          eb
            .selectFrom('siem_outbox')
            .select('audit_event_id')
            .where('stream', '=', stream)
            .where('delivered_at', '<', before)
            .orderBy('audit_event_id')
            .limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    streams(): Promise<SiemStreamRow[]> {
      return db.selectFrom('siem_stream').selectAll().orderBy('stream').execute();
    },
  };
}

export type SiemRepository = ReturnType<typeof siemRepository>;
