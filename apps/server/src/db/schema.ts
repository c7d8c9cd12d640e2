import type { PushStateName } from '@mfa-portal/shared';
import type { ColumnType, Generated } from 'kysely';

/** Kysely table types. Each area keeps its tables together; `Database` joins them. */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string, string>;

// --- core (0001) ---
export interface AppSecretTable {
  name: string;
  value: Json<unknown>;
  created_at: Generated<Date>;
}
export interface MissingTranslationTable {
  lng: string;
  ns: string;
  key: string;
  fallback: string;
  reports: Generated<number>;
  first_seen_at: Generated<Date>;
  last_seen_at: Generated<Date>;
}

// --- embedded identity provider (0002) ---
export interface OidcPayloadTable {
  model: string;
  id: string;
  payload: Json<Record<string, unknown>>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
}
export interface IdpAccountTable {
  id: Generated<string>;
  username: string;
  password_hash: string;
  email: string;
  given_name: string;
  family_name: string;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Generated<Date>;
}

// --- builtin MFA provider (0003) ---
export type MfaUserStatus = 'active' | 'bypass' | 'disabled' | 'locked_out';
export interface MfaUserTable {
  id: Generated<string>;
  username: string;
  email: Generated<string>;
  real_name: Generated<string>;
  status: MfaUserStatus;
  status_reason: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  // (0004) lockout state
  failed_attempts: Generated<number>;
  locked_until: NullableTimestamp;
}
export interface MfaDeviceTable {
  id: Generated<string>;
  user_id: string;
  kind: 'phone' | 'authenticator' | 'hardware_token';
  name: string;
  capabilities: ColumnType<string[], string[] | undefined, string[]>;
  phone_number: string | null;
  platform: string | null;
  serial: string | null;
  token_type: string | null;
  created_at: Generated<Date>;
  last_used_at: NullableTimestamp;
  // (0004) sealed TOTP secret, last accepted TOTP step, inventory token of a hardware token
  secret_sealed: string | null;
  last_used_step: number | null;
  hardware_token_id: string | null;
}
export interface MfaBypassCodeTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  uses_left: number;
  expires_at: Timestamp;
  created_by: string;
  created_at: Generated<Date>;
  revoked_at: NullableTimestamp;
  // (0004) uses it was created with
  reuse_count: number | null;
}

// --- MFA domain (0004) ---
export type HardwareTokenStatus = 'available' | 'assigned' | 'retired';
export interface MfaHardwareTokenTable {
  id: Generated<string>;
  serial: string;
  token_type: Generated<string>;
  seed_sealed: string;
  counter: Generated<number>;
  status: ColumnType<HardwareTokenStatus, HardwareTokenStatus | undefined, HardwareTokenStatus>;
  user_id: string | null;
  assigned_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export interface MfaTotpEnrolmentTable {
  id: string;
  user_id: string;
  secret_sealed: string;
  allow_additional: Generated<boolean>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
}
export interface StepUpTable {
  id: Generated<string>;
  upn: string;
  method: 'passcode' | 'bypass' | 'push';
  verified_at: Timestamp;
}
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
}
export interface AuditHeadTable {
  id: number;
  hash: string;
  last_event_id: number | null;
  updated_at: Generated<Date>;
}

// --- directory (0005): roles of each user as last seen ---
export interface DirectoryUserTable {
  upn: string;
  display_name: Generated<string>;
  email: Generated<string>;
  /** null: never seen (the policy treats the account as protected). */
  roles: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  last_seen_at: NullableTimestamp;
}

// --- push (0006) ---
export interface PushTransactionTable {
  id: string;
  upn: string;
  device_id: string;
  purpose: 'device_test' | 'step_up' | 'admin_verify_identity';
  provider_ref: string;
  actor_upn: string;
  state: ColumnType<PushStateName, PushStateName | undefined, PushStateName>;
  started_at: Timestamp;
  expires_at: Timestamp;
  completed_at: NullableTimestamp;
}

// --- rate limits shared by all instances (0007) ---
export interface RateLimitBucketTable {
  key: string;
  tokens: number;
  /** Milliseconds since the epoch (bigint: read as a string by some drivers). */
  updated_at_ms: ColumnType<string | number, number, number>;
  full_at_ms: ColumnType<string | number, number, number>;
}

export interface Database {
  app_secret: AppSecretTable;
  missing_translation: MissingTranslationTable;
  oidc_payload: OidcPayloadTable;
  idp_account: IdpAccountTable;
  mfa_user: MfaUserTable;
  mfa_device: MfaDeviceTable;
  mfa_bypass_code: MfaBypassCodeTable;
  mfa_hardware_token: MfaHardwareTokenTable;
  mfa_totp_enrolment: MfaTotpEnrolmentTable;
  step_up: StepUpTable;
  audit_event: AuditEventTable;
  audit_head: AuditHeadTable;
  directory_user: DirectoryUserTable;
  push_transaction: PushTransactionTable;
  rate_limit_bucket: RateLimitBucketTable;
}
