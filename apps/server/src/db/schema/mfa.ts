import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

/** The builtin MFA provider's store: users, devices, bypass codes, hardware tokens and TOTP enrolments in progress. */

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
  // (0019) the portal's own authenticator app on a phone activated in it
  app: 'portal_authenticator' | null;
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

export interface MfaTables {
  mfa_user: MfaUserTable;
  mfa_device: MfaDeviceTable;
  mfa_bypass_code: MfaBypassCodeTable;
  mfa_hardware_token: MfaHardwareTokenTable;
  mfa_totp_enrolment: MfaTotpEnrolmentTable;
}
