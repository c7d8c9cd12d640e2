import type { SignInMethodName } from '@mfa-portal/shared';
import type { Timestamp } from './columns.js';

/** What people choose for themselves. */

/** (0022) The default sign-in method: one row per person who chose one. */
export interface DefaultSignInMethodTable {
  upn: string;
  device_id: string;
  method: SignInMethodName;
  updated_at: Timestamp;
}

export interface PreferencesTables {
  default_sign_in_method: DefaultSignInMethodTable;
}
