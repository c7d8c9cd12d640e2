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
  kind: 'phone' | 'authenticator' | 'hardware_token' | 'passkey' | 'security_key';
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
  method: 'passcode' | 'bypass' | 'push' | 'webauthn';
  verified_at: Timestamp;
  /** (0018) The session that earned it; null on older rows, which never count. */
  session_key: string | null;
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
  /** (0014) The client's User-Agent header; part of the hash when present. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** (0008) status at the MFA provider as last synced (Duo); null: not known. */
  mfa_status: ColumnType<string | null, string | null | undefined, string | null>;
  // (0009) where the user came from, when created and last changed
  source: DirectorySource | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** (0018) When SCIM or the first sign-in created the user; null for seeded or imported users. */
  provisioned_at: NullableTimestamp;
}
export type DirectorySource = 'scim' | 'jit' | 'demo' | 'sign_in';

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
  /** (0018) The session that started it; null on older rows. */
  session_key: ColumnType<string | null, string | null | undefined, string | null>;
}

// --- rate limits shared by all instances (0007) ---
export interface RateLimitBucketTable {
  key: string;
  tokens: number;
  /** Milliseconds since the epoch (bigint: read as a string by some drivers). */
  updated_at_ms: ColumnType<string | number, number, number>;
  full_at_ms: ColumnType<string | number, number, number>;
}

// --- scale (0008): hash-chain checkpoints and verification runs ---
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

// --- provisioning (0009) ---
export interface ScimTokenTable {
  id: Generated<string>;
  name: string;
  token_hash: string;
  created_by: string;
  created_at: Generated<Date>;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}
export interface ScimEmail {
  value: string;
  type?: string;
  primary?: boolean;
  display?: string;
}
export interface ScimRole {
  value: string;
  display?: string;
  type?: string;
  primary?: boolean;
}
export interface ScimUserTable {
  id: Generated<string>;
  user_name: string;
  external_id: string | null;
  active: Generated<boolean>;
  display_name: string | null;
  given_name: string | null;
  family_name: string | null;
  formatted_name: string | null;
  emails: Json<ScimEmail[]>;
  roles: ColumnType<ScimRole[] | null, string | null, string | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** (0018) When SCIM took over an account it did not create; null: SCIM created it. */
  adopted_at: NullableTimestamp;
}
export interface ScimGroupTable {
  id: Generated<string>;
  display_name: string;
  external_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export interface ScimGroupMemberTable {
  group_id: string;
  user_id: string;
}

// --- enrolment passes (0010) ---
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

// --- WebAuthn (0011) ---
export interface MfaWebauthnCredentialTable {
  device_id: string;
  credential_id: string;
  public_key: string;
  /** bigint: read back as a string by some drivers. */
  sign_count: ColumnType<string | number, number | undefined, number>;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  aaguid: string;
  attachment: 'platform' | 'cross-platform' | null;
  backup_eligible: Generated<boolean>;
  backed_up: Generated<boolean>;
}
export type WebauthnChallengePurpose = 'registration' | 'step_up' | 'device_test' | 'sign_in';
export interface WebauthnChallengeTable {
  id: string;
  upn: string;
  purpose: WebauthnChallengePurpose;
  challenge: string;
  device_id: string | null;
  interaction_uid: string | null;
  allow_additional: Generated<boolean>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
}
export interface WebauthnPolicyTable {
  id: number;
  aaguid_allow_list: ColumnType<string[], string[] | undefined, string[]>;
  require_phishing_resistant: Generated<boolean>;
  updated_by: string | null;
  updated_at: NullableTimestamp;
}

// --- reports (0015): the enrolment figures of each day ---
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

// --- security notifications (0014) ---
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
  audit_checkpoint: AuditCheckpointTable;
  audit_verification: AuditVerificationTable;
  scim_token: ScimTokenTable;
  scim_user: ScimUserTable;
  scim_group: ScimGroupTable;
  scim_group_member: ScimGroupMemberTable;
  enrolment_pass: EnrolmentPassTable;
  mfa_webauthn_credential: MfaWebauthnCredentialTable;
  webauthn_challenge: WebauthnChallengeTable;
  webauthn_policy: WebauthnPolicyTable;
  notification_outbox: NotificationOutboxTable;
  report_snapshot: ReportSnapshotTable;
  session_revocation: SessionRevocationTable;
}

// --- Session revocation (0012) ---

export interface SessionRevocationTable {
  upn: string;
  /** Access tokens issued at or before this second are refused. */
  revoked_before: Timestamp;
  reason: string;
  updated_at: Generated<Date>;
}
