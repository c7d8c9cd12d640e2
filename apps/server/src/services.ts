import type { AppConfig } from './config.js';
import type { Kysely } from 'kysely';
import { createPolicy, type Policy } from './auth/policy.js';
import type { Database } from './db/schema.js';
import { createInventory } from './mfa/builtin/inventory.js';
import type { TokenInventory } from './mfa/inventory.js';
import { type MfaProvider } from './mfa/index.js';
import { loadMfaKeys } from './mfa/mfa-keys.js';
import { createDbRateLimiter } from './lib/rate-limit/rate-limit-store.js';
import { createVerificationService, type VerificationService } from './modules/verification/verification.service.js';
import { createAuditService, type AuditService } from './modules/audit/audit.service.js';
import { createAuditVerificationService, type AuditVerificationService } from './modules/audit/audit-verification.service.js';
import { directoryRepository, type DirectoryRepository } from './modules/directory/directory.repository.js';
import { createPushService, type PushService } from './modules/push/push.service.js';
import { createStepUpService, type StepUpService } from './modules/step-up/step-up.service.js';
import { loadAttestationTrust } from './modules/webauthn/attestation-trust.js';
import { createWebauthnPolicyService, type WebauthnPolicyService } from './modules/webauthn/webauthn-policy.service.js';
import { createWebauthnService, type WebauthnService } from './modules/webauthn/webauthn.service.js';
import { type PortalMetrics } from './modules/metrics/metrics.registry.js';
import { withAuditMetrics } from './modules/metrics/metrics.recorders.js';
import { createScimTokensService, type ScimTokensService } from './modules/scim/scim-tokens.service.js';
import {
  createSessionsService,
  REVOCATION_CACHE_TTL_MS,
  type SessionRevocation,
  type SessionsService,
} from './modules/sessions/sessions.service.js';
import { userDataTtlMs } from './modules/account/user-data-cache.js';
import { cacheLookupRecorder } from './modules/metrics/metrics.recorders.js';
import { ReadCache } from './lib/read-cache.js';
import type { MfaData } from '@mfa-portal/shared';
import { createIdentityVerifications, type IdentityVerifications } from './modules/admin/common/identity-verification.js';
import { createEnrolmentPassService, type EnrolmentPassService } from './modules/enrolment-pass/enrolment-pass.service.js';
import { reportsRepository } from './modules/admin/reports/reports.repository.js';
import { createReportsService, type ReportsService } from './modules/admin/reports/reports.service.js';
import { createNotificationsService, type NotificationsService } from './modules/notifications/notifications.service.js';
import { createIdpSessionRevoker } from './idp/session-revoker.js';
import { createIpLocator, type IpLocator } from './lib/ip-locations.js';
import { localesDir } from './lib/paths.js';

/**
 * What the application is made of, built once and passed to the modules (Logto's `Libraries`): no
 * module builds its own collaborator. The embedded sign-in and the API share one audit log and one
 * verification service (one set of rate limits, kept in the database so every instance counts the
 * same attempts).
 */
export interface Services {
  config: AppConfig;
  db: Kysely<Database>;
  mfa: MfaProvider;
  audit: AuditService;
  stepUp: StepUpService;
  verification: VerificationService;
  policy: Policy;
  pushes: PushService;
  directory: DirectoryRepository;
  /** Verification runs of the audit hash chain (off the request, with progress). */
  auditVerification: AuditVerificationService;
  /** The builtin provider's token inventory; null with another provider (kept at the provider). */
  inventory: TokenInventory | null;
  /** Passkeys and security keys: the ceremonies and the administrator's policy. */
  webauthn: WebauthnService;
  webauthnPolicy: WebauthnPolicyService;
  /** First-device policy and enrolment passes. */
  enrolmentPasses: EnrolmentPassService;
  identityVerifications: IdentityVerifications;
  /** SCIM bearer tokens. */
  scimTokens: ScimTokensService;
  /** Session revocation: sign-out, sign out everywhere, disabled accounts; at the embedded provider too. */
  sessions: SessionsService;
  /** Reports for administrators: coverage snapshots and lists. */
  reports: ReportsService;
  /** Security notifications by e-mail: the outbox (queued from the audit append) and its sender. */
  notifications: NotificationsService;
  /** Approximate location of a client address (IP_LOCATIONS). */
  locate: IpLocator;
  /** Per-user reads kept in memory while the database's change feed listens (app.ts starts the feed). */
  readCaches: ReadCaches;
}

/**
 * The per-user read caches (READ_CACHE): each user's session revocation, and their MFA data when the
 * builtin provider keeps it in the portal's own database (every change to it reaches the change feed;
 * Duo's does not, so its data is always asked).
 */
export interface ReadCaches {
  revocations: ReadCache<SessionRevocation | null> | null;
  userData: ReadCache<MfaData> | null;
  all: ReadCache<unknown>[];
}

/** Users whose reads are kept, per cache (the oldest go first): about 1 KiB each, some 20 MiB at most. */
const READ_CACHE_ENTRIES = 20_000;

function createReadCaches(config: AppConfig, mfa: MfaProvider, metrics?: PortalMetrics): ReadCaches {
  if (!config.readCache) return { revocations: null, userData: null, all: [] };
  const onLookup = (name: string) => (metrics ? { onLookup: cacheLookupRecorder(metrics, name) } : {});
  const revocations = new ReadCache<SessionRevocation | null>({
    name: 'revocation',
    maxEntries: READ_CACHE_ENTRIES,
    ttlMs: () => REVOCATION_CACHE_TTL_MS,
    ...onLookup('revocation'),
  });
  const userData =
    mfa.name === 'builtin'
      ? new ReadCache<MfaData>({ name: 'user_data', maxEntries: READ_CACHE_ENTRIES, ttlMs: userDataTtlMs, ...onLookup('user_data') })
      : null;
  return { revocations, userData, all: [revocations, ...(userData ? [userData] : [])] as ReadCache<unknown>[] };
}

export function createServices(
  config: AppConfig,
  db: Kysely<Database>,
  mfa: MfaProvider,
  metrics?: PortalMetrics,
  /** PostgreSQL's URL of `db` (the audit verification worker opens its own connection); none on PGlite. */
  databaseUrl?: string,
): Services {
  const directory = directoryRepository(db);
  const readCaches = createReadCaches(config, mfa, metrics);
  // Every audit append queues, in its own transaction, the e-mail the event causes.
  const notifications = createNotificationsService({
    db,
    config: config.notifications,
    portalUrl: config.publicUrl,
    localesDir,
    recipientOf: async (upn) => {
      const user = await directory.find(upn);
      return user?.email ? { email: user.email, displayName: user.displayName || null } : null;
    },
  });
  const auditService = createAuditService(db, { afterAppend: notifications.afterAppend });
  // Audit appends and chain verifications are counted (metrics) where the app passes its registry.
  const audit = metrics ? withAuditMetrics(auditService, metrics) : auditService;
  const { perUser, perAddress, windowSeconds } = config.mfa.verifyRateLimit;
  const verification = createVerificationService({
    mfa,
    audit,
    limiters: {
      perUser: createDbRateLimiter(db, { name: 'verify', limit: perUser, intervalSeconds: windowSeconds }),
      perAddress: createDbRateLimiter(db, { name: 'verify', limit: perAddress, intervalSeconds: windowSeconds }),
    },
    // `sessions` is made below; a lockout happens only once requests are served.
    onLockout: (upn) => sessions.revokeAll(upn, 'account_locked_out'),
  });
  const stepUp = createStepUpService(db, { maxAgeSeconds: config.mfa.stepUpMaxAgeSeconds });
  const policy = createPolicy(config.roles);
  // The portal is the WebAuthn relying party: RP ID = its host, expected origin = its origin.
  const portalUrl = new URL(config.publicUrl);
  // FIDO metadata (files the administrator supplies) is read and checked once; a bad file stops the start.
  const attestationTrust = loadAttestationTrust(config.webauthnMetadata);
  const webauthnPolicy = createWebauthnPolicyService({ db, audit, isProtected: policy.isProtected, attestationTrust });
  const enrolmentPasses = createEnrolmentPassService({
    db,
    mfa,
    audit,
    policy: config.provisioning.firstDevice.policy,
    windowDays: config.provisioning.firstDevice.windowDays,
    limiter: createDbRateLimiter(db, { name: 'enrolment_pass', limit: 5, intervalSeconds: 900 }),
    isProtected: policy.isProtected,
  });
  const webauthn = createWebauthnService({
    db,
    mfa,
    audit,
    stepUp,
    verification,
    policy: webauthnPolicy,
    rp: { rpId: portalUrl.hostname, rpName: config.mfa.totpIssuer, origin: portalUrl.origin },
    // A passkey as a first device needs what any first device needs.
    firstDevice: { assertAllowed: (who, now) => enrolmentPasses.assertFirstDeviceAllowed(who, now) },
  });
  // Revoked at the API (every instance) and, with the embedded provider, its sessions and refresh tokens
  // (with Entra, the portal keeps none: Entra's own sign-out and token lifetimes apply).
  const sessions = createSessionsService({
    db,
    ...(config.idp.mode === 'embedded' ? { endProviderSessions: createIdpSessionRevoker(db).revokeAll } : {}),
    ...(readCaches.revocations ? { cache: readCaches.revocations } : {}),
    endGrants: async (upn) => {
      await stepUp.endAll(upn);
      await enrolmentPasses.endGrants(upn);
    },
  });
  return {
    config,
    db,
    mfa,
    audit,
    stepUp,
    verification,
    policy,
    webauthn,
    webauthnPolicy,
    pushes: createPushService(db, mfa),
    directory,
    auditVerification: createAuditVerificationService(db, {
      ...(databaseUrl ? { databaseUrl } : {}),
      ...(metrics ? { onFinished: (result) => metrics.auditChainVerifications.inc({ result }) } : {}),
    }),
    inventory: mfa.name === 'builtin' ? createInventory(db, loadMfaKeys(config).box) : null,
    enrolmentPasses,
    // "Verify, then issue": the helpdesk's recent identity verifications, read from the audit log.
    identityVerifications: createIdentityVerifications({
      audit,
      windowSeconds: config.mfa.helpdeskVerificationWindowSeconds,
      // A verification made before the administrator's sessions were ended does not outlive them.
      revokedBefore: (upn) => sessions.revokedBefore(upn),
    }),
    scimTokens: createScimTokensService({ db, audit, envToken: config.provisioning.scimToken }),
    sessions,
    reports: createReportsService({ repo: reportsRepository(db), provider: mfa.name }),
    notifications,
    locate: createIpLocator(config.ipLocations),
    readCaches,
  };
}
