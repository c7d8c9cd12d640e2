import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

/** WebAuthn: the builtin provider's credentials, the challenges of ceremonies in progress, and the administrators' policy. */

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

export interface WebauthnTables {
  mfa_webauthn_credential: MfaWebauthnCredentialTable;
  webauthn_challenge: WebauthnChallengeTable;
  webauthn_policy: WebauthnPolicyTable;
}
