import type { ColumnType, Generated } from 'kysely';
import type { Json, NullableTimestamp } from './columns.js';

/** The embedded identity provider: oidc-provider's stored models and the accounts that sign in there. */

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

export interface IdentityProviderTables {
  oidc_payload: OidcPayloadTable;
  idp_account: IdpAccountTable;
}
