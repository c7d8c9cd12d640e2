import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';

/**
 * A checksum of every table a refused request must leave alone (fuzz suite, not a test file). Left
 * out: the rate-limit counters (every request counts), the audit log's head and checkpoints (an
 * appended denial moves them), the audit log's verification runs (a run started earlier finishes in
 * the background), the daily enrolment snapshot (its job writes on its own timer, ten seconds after
 * start and then hourly, whatever requests come in) and, for the sign-in pages, the provider's
 * sessions and interactions.
 * Audit events are compared as "the rows that existed are unchanged": denials are appended on purpose.
 */
const IGNORED = new Set([
  'rate_limit_bucket',
  'audit_verification',
  'report_snapshot',
  'audit_head',
  'audit_checkpoint',
  'audit_event',
  'kysely_migration',
  'kysely_migration_lock',
]);

export interface StateSnapshot {
  tables: Record<string, string>;
  auditMaxId: number;
  auditChecksum: string;
}

const hash = (rows: unknown[]) =>
  createHash('sha256')
    .update(
      rows
        .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
        .sort()
        .join('\n'),
    )
    .digest('hex');

let tableNames: string[] | undefined;

export async function snapshotState(db: Kysely<Database>, ignore: readonly string[] = []): Promise<StateSnapshot> {
  tableNames ??= (
    await sql<{
      table_name: string;
    }>`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
  ).rows.map((r) => r.table_name);
  const tables: Record<string, string> = {};
  for (const t of tableNames) {
    if (IGNORED.has(t) || ignore.includes(t)) continue;
    tables[t] = hash((await sql`select * from ${sql.table(t)}`.execute(db)).rows);
  }
  const max = (await sql<{ m: string | null }>`select max(id)::text as m from audit_event`.execute(db)).rows[0]?.m;
  const auditMaxId = Number(max ?? 0);
  const auditChecksum = hash((await sql`select * from audit_event where id <= ${auditMaxId}`.execute(db)).rows);
  return { tables, auditMaxId, auditChecksum };
}

/** What a refused request changed: table names, and `audit_event` when an existing event changed. */
export async function changedSince(db: Kysely<Database>, before: StateSnapshot, ignore: readonly string[] = []): Promise<string[]> {
  const after = await snapshotState(db, ignore);
  const changed = Object.keys(before.tables).filter((t) => before.tables[t] !== after.tables[t]);
  const audit = hash((await sql`select * from audit_event where id <= ${before.auditMaxId}`.execute(db)).rows);
  if (audit !== before.auditChecksum) changed.push('audit_event (existing rows)');
  return changed;
}
