import type { AuditTables } from './schema/audit.js';
import type { AuthenticatorTables } from './schema/authenticator.js';
import type { CoreTables } from './schema/core.js';
import type { DirectoryTables } from './schema/directory.js';
import type { IdentityProviderTables } from './schema/identity-provider.js';
import type { MfaTables } from './schema/mfa.js';
import type { OperationsTables } from './schema/operations.js';
import type { SessionsTables } from './schema/sessions.js';
import type { WebauthnTables } from './schema/webauthn.js';

/**
 * Kysely table types. Each area keeps its tables together in `schema/<area>.ts` (the migration that
 * added a column is named next to it); `Database` joins them, and every table type is importable from
 * here so callers need not know which part holds it.
 */

export type * from './schema/audit.js';
export type * from './schema/authenticator.js';
export type * from './schema/core.js';
export type * from './schema/directory.js';
export type * from './schema/identity-provider.js';
export type * from './schema/mfa.js';
export type * from './schema/operations.js';
export type * from './schema/sessions.js';
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
    OperationsTables {}
