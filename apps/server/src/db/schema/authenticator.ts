import type { DevicePublicKey, PushRequestKind, PushStateName } from '@mfa-portal/shared';
import type { Generated } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './columns.js';

/**
 * The portal's own authenticator app on the builtin provider (0019): device keys, activation links,
 * push requests with their numbers, and the secrets the portal generates once (the VAPID key pair).
 */

export interface MfaAuthenticatorTable {
  device_id: string;
  public_key_jwk: Json<DevicePublicKey>;
  /** The Web Push subscription (JSON), sealed with the MFA secret box; null: no notifications. */
  push_subscription_sealed: string | null;
  created_at: Generated<Date>;
}
export interface MfaAuthenticatorActivationTable {
  id: string;
  user_id: string;
  /** SHA-256 of the activation token, hex. */
  token_hash: string;
  allow_additional: Generated<boolean>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  device_id: string | null;
}
/** What the phone shows about a push: who asks, from which browser and system, where. */
export interface PushRequestContext {
  application: string;
  browser: string | null;
  os: string | null;
  ipAddress: string | null;
  location: string | null;
  requestedBy: string | null;
}
export interface MfaPushRequestTable {
  id: string;
  user_id: string;
  device_id: string;
  kind: PushRequestKind;
  /** Two digits, 10 to 99. */
  number: string;
  context: Json<PushRequestContext>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  state: Generated<PushStateName>;
  answered_at: NullableTimestamp;
}
export interface PortalSecretTable {
  name: string;
  value_sealed: string;
  created_at: Generated<Date>;
}

export interface AuthenticatorTables {
  mfa_authenticator: MfaAuthenticatorTable;
  mfa_authenticator_activation: MfaAuthenticatorActivationTable;
  mfa_push_request: MfaPushRequestTable;
  portal_secret: PortalSecretTable;
}
