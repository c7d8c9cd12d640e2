import type { ColumnType, Generated } from 'kysely';
import type { Json, NullableTimestamp } from './columns.js';

/** The directory the policy reads (each user's roles as last seen) and the SCIM resources provisioning keeps there. */

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
  /** (0026) Whether the MFA provider says the person has a device, as last synced (Duo); null: not known. */
  mfa_enrolled: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
}
export type DirectorySource = 'scim' | 'jit' | 'demo' | 'sign_in';
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
/** A postal address (RFC 7643, section 4.1.2). */
export interface ScimAddress {
  formatted?: string;
  streetAddress?: string;
  locality?: string;
  region?: string;
  postalCode?: string;
  country?: string;
  type?: string;
  primary?: boolean;
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
  /** (0020) Postal addresses as the client sent them. */
  addresses: ColumnType<ScimAddress[], string | undefined, string>;
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

export interface DirectoryTables {
  directory_user: DirectoryUserTable;
  scim_token: ScimTokenTable;
  scim_user: ScimUserTable;
  scim_group: ScimGroupTable;
  scim_group_member: ScimGroupMemberTable;
}
