import type { Kysely, Selectable } from 'kysely';
import type { AuditVerificationTable, Database } from '../../db/schema.js';

export type ChainVerificationRow = Selectable<AuditVerificationTable>;

/** SQL of `audit_verification` (the runs of hash-chain verification and their progress); no rules here. */
export function chainVerificationRepository(db: Kysely<Database>) {
  return {
    insert(row: { id: string; mode: 'full' | 'incremental'; started_by: string | null; at: Date }) {
      return db
        .insertInto('audit_verification')
        .values({ id: row.id, mode: row.mode, state: 'running', started_by: row.started_by, started_at: row.at, updated_at: row.at })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    progress(id: string, checked: number, total: number, at: Date) {
      return db.updateTable('audit_verification').set({ checked, total, updated_at: at }).where('id', '=', id).execute();
    },
    finish(id: string, state: 'done' | 'failed', result: Record<string, unknown>, checked: number, at: Date) {
      return db
        .updateTable('audit_verification')
        .set({ state, result: JSON.stringify(result), checked, updated_at: at, finished_at: at })
        .where('id', '=', id)
        .execute();
    },
    find(id: string) {
      return db.selectFrom('audit_verification').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** A run of this mode still reporting progress since `since`. */
    findRunning(mode: 'full' | 'incremental', since: Date) {
      return db
        .selectFrom('audit_verification')
        .selectAll()
        .where('state', '=', 'running')
        .where('mode', '=', mode)
        .where('updated_at', '>=', since)
        .orderBy('started_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
  };
}
