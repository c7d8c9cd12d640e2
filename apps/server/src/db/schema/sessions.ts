import type { PushStateName } from '@mfa-portal/shared';
import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

/** What a signed-in session earns or loses: step-ups, push transactions, enrolment passes and revocations. */

export interface StepUpTable {
  id: Generated<string>;
  upn: string;
  method: 'passcode' | 'bypass' | 'push' | 'webauthn';
  verified_at: Timestamp;
  /** (0018) The session that earned it; null on older rows, which never count. */
  session_key: string | null;
}
export interface PushTransactionTable {
  id: string;
  upn: string;
  device_id: string;
  purpose: 'device_test' | 'step_up' | 'admin_verify_identity' | 'sign_in';
  provider_ref: string;
  actor_upn: string;
  state: ColumnType<PushStateName, PushStateName | undefined, PushStateName>;
  started_at: Timestamp;
  expires_at: Timestamp;
  completed_at: NullableTimestamp;
  /** (0018) The session that started it; null on older rows. */
  session_key: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface EnrolmentPassTable {
  id: Generated<string>;
  upn: string;
  pass_hash: string;
  max_uses: number;
  uses_left: number;
  expires_at: Timestamp;
  created_by: string;
  reason: string;
  created_at: Generated<Date>;
  redeemed_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** (0018) The session that redeemed it: only that session may enrol with it. */
  redeemed_session: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface SessionRevocationTable {
  upn: string;
  /** Access tokens issued at or before this second are refused. */
  revoked_before: Timestamp;
  reason: string;
  updated_at: Generated<Date>;
}

export interface SessionsTables {
  step_up: StepUpTable;
  push_transaction: PushTransactionTable;
  enrolment_pass: EnrolmentPassTable;
  session_revocation: SessionRevocationTable;
}
