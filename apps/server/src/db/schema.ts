import type { AdminUnitTables } from './schema/admin-units.js';
import type { AuditTables } from './schema/audit.js';
import type { AuthenticatorTables } from './schema/authenticator.js';
import type { CampaignTables } from './schema/campaigns.js';
import type { CoreTables } from './schema/core.js';
import type { DirectoryTables } from './schema/directory.js';
import type { FactorPolicyTables } from './schema/factor-policy.js';
import type { IdentityProviderTables } from './schema/identity-provider.js';
import type { MfaTables } from './schema/mfa.js';
import type { OperationsTables } from './schema/operations.js';
import type { PreferencesTables } from './schema/preferences.js';
import type { SessionsTables } from './schema/sessions.js';
import type { SiemTables } from './schema/siem.js';
import type { WebauthnTables } from './schema/webauthn.js';

/**
 * Kysely table types. Each area keeps its tables together in `schema/<area>.ts` (the migration that
 * added a column is named next to it); `Database` joins them, and every table type is importable from
 * here so callers need not know which part holds it.
 */

export type * from './schema/admin-units.js';
export type * from './schema/audit.js';
export type * from './schema/authenticator.js';
export type * from './schema/campaigns.js';
export type * from './schema/core.js';
export type * from './schema/directory.js';
export type * from './schema/factor-policy.js';
export type * from './schema/identity-provider.js';
export type * from './schema/mfa.js';
export type * from './schema/operations.js';
export type * from './schema/preferences.js';
export type * from './schema/sessions.js';
export type * from './schema/siem.js';
export type * from './schema/webauthn.js';

export interface Database
  extends
    CoreTables,
    IdentityProviderTables,
    MfaTables,
    AuthenticatorTables,
    WebauthnTables,
    SessionsTables,
    AuditTables,
    DirectoryTables,
    OperationsTables,
    PreferencesTables,
    SiemTables,
    AdminUnitTables,
    FactorPolicyTables,
    CampaignTables {}
