import type { Policy } from '../../../auth/policy.js';
import type { MfaProvider } from '../../../mfa/port.js';
import type { VerificationService } from '../../verification/verification.service.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { DirectoryRepository } from '../../directory/directory.repository.js';
import type { PushService } from '../../push/push.service.js';
import type { IssuedCodesGate } from '../../common/self-service.js';
import type { AdminScopes } from '../common/admin-scope.js';
import type { AdminAuthorization } from '../common/authorization.js';
import type { IdentityVerifications } from '../common/identity-verification.js';

/** What the admin users service (its reads and its actions) is given by the composition root. */
export interface UsersServiceDeps {
  mfa: MfaProvider;
  audit: AuditService;
  verification: VerificationService;
  directory: DirectoryRepository;
  policy: Policy;
  authorization: AdminAuthorization;
  /** Pushes started through the provider (verification push). */
  pushes: PushService;
  /** Where staff sign in and enrol (the activation link). */
  portalUrl: string;
  /** "Verify, then issue": the verification an issuing action needs. */
  verifications: IdentityVerifications;
  /**
   * Where admin search looks: the provider's own search (builtin: its store, indexed), or the portal's
   * directory (Duo, which searches by exact name only; kept current by sign-ins, SCIM and the sync).
   */
  userSearch?: 'provider' | 'directory';
  /** The person's factor policy: codes a service desk issues are refused where they could not be used, or beyond the most allowed. */
  factorPolicy?: IssuedCodesGate;
  /** Administrative units: a helpdesk member limited to some searches only their people (the directory's). */
  scopes?: AdminScopes;
  now?: () => Date;
}
