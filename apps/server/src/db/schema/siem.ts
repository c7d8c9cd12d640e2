import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

/** (0021) Audit to a SIEM: each external stream's delivery state, and its outbox of audit events. */

export type SiemStreamName = 'syslog' | 'webhook';

export interface SiemStreamTable {
  stream: SiemStreamName;
  /** The instance sending this stream, until `lease_until` (null: nobody). */
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  /** Failed attempts in a row; 0 once an attempt succeeds. */
  failures: Generated<number>;
  /** No attempt before this time (back-off after a failure); null: now. */
  next_attempt_at: NullableTimestamp;
  last_error: string | null;
  last_error_at: NullableTimestamp;
  last_delivered_at: NullableTimestamp;
  /** bigint; read back as a number (int8 parser). */
  last_delivered_event_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SiemOutboxTable {
  stream: SiemStreamName;
  audit_event_id: number;
  created_at: Timestamp;
  attempts: Generated<number>;
  last_error: string | null;
  /** null: still to send. */
  delivered_at: NullableTimestamp;
}

export interface SiemTables {
  siem_stream: SiemStreamTable;
  siem_outbox: SiemOutboxTable;
}
