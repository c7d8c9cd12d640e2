import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

/** The append-only audit log, its hash chain's head and checkpoints, and the chain's verification runs. */

export interface AuditEventTable {
  /** bigserial; read back as a number (int8 parser), exposed as a string. */
  id: Generated<number>;
  occurred_at: Timestamp;
  actor_upn: string | null;
  actor_roles: ColumnType<string[], string[] | undefined, string[]>;
  target_upn: string | null;
  action: string;
  outcome: string;
  reason: string | null;
  request_id: string | null;
  client_address: string | null;
  details: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  prev_hash: string;
  hash: string;
  /** (0014) The client's User-Agent header; part of the hash when present. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface AuditHeadTable {
  id: number;
  hash: string;
  last_event_id: number | null;
  updated_at: Generated<Date>;
}
export interface AuditCheckpointTable {
  id: Generated<number>;
  last_event_id: number;
  hash: string;
  event_count: number;
  created_at: Generated<Date>;
}
export interface AuditVerificationTable {
  id: string;
  mode: 'full' | 'incremental';
  state: 'running' | 'done' | 'failed';
  started_by: string | null;
  started_at: Timestamp;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
  checked: Generated<number>;
  total: Generated<number>;
  result: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
}

export interface AuditTables {
  audit_event: AuditEventTable;
  audit_head: AuditHeadTable;
  audit_checkpoint: AuditCheckpointTable;
  audit_verification: AuditVerificationTable;
}
