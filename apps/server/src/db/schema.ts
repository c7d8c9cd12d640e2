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
}

export interface Database {
  app_secret: AppSecretTable;
  missing_translation: MissingTranslationTable;
  oidc_payload: OidcPayloadTable;
  idp_account: IdpAccountTable;
  mfa_user: MfaUserTable;
  mfa_device: MfaDeviceTable;
  mfa_bypass_code: MfaBypassCodeTable;
}
