import type { ColumnType, Generated } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './columns.js';

/** What operators read and receive: the daily enrolment figures and the outbox of security notifications. */

export interface ReportSnapshotTable {
  /** The day (YYYY-MM-DD, UTC); read back as a Date or a string depending on the driver. */
  day: ColumnType<Date | string, string, string>;
  provider: string;
  staff: number;
  /** null: the provider cannot say (Duo). */
  covered: number | null;
  by_kind: ColumnType<Record<string, number> | null, string | null, string | null>;
  taken_at: Timestamp;
}
export type NotificationState = 'pending' | 'sent' | 'failed';
export interface NotificationOutboxTable {
  id: Generated<number>;
  created_at: Generated<Date>;
  audit_event_id: number | null;
  kind: string;
  target_upn: string | null;
  /** Fixed recipient (the security contact); null: the target's e-mail from the directory at send time. */
  recipient: string | null;
  params: Json<Record<string, unknown>>;
  state: Generated<NotificationState>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  sent_at: NullableTimestamp;
}

export interface OperationsTables {
  report_snapshot: ReportSnapshotTable;
  notification_outbox: NotificationOutboxTable;
}
