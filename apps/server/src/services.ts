import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.js';
import { createPolicy } from './auth/policy.js';
import { secondFactorRule } from './auth/second-factor.js';
import { withDirectoryRoleBound } from './auth/directory-role-bound.js';
import { createTokenVerifier, withVerifiedTokenCache } from './auth/token-verifier.js';
import { tokenVerifierOptions } from './auth/token-verifier-options.js';
import type { ChangeFeed } from './db/change-feed.js';
import type { DatabaseHandle } from './db/database.js';
import { seedDemo } from './demo/index.js';
import { scimRolesOf } from './idp/accounts.js';
import type { EmbeddedIdp } from './idp/index.js';
import { hashPassword } from './idp/password.js';
import { createIdpSessionRevoker } from './idp/session-revoker.js';
import type { ErrorTranslator } from './lib/errors.js';
import { createIpLocator } from './lib/ip-locations.js';
import { localesDir } from './lib/paths.js';
import { createDbRateLimiter } from './lib/rate-limit/rate-limit-store.js';
import { createMfa, mfaDemoSeeds, type MfaProvider } from './mfa/index.js';
import { createActivityReportService } from './modules/activity/activity-report.service.js';
import { createActivityService } from './modules/activity/activity.service.js';
import { createAdminAuditService } from './modules/admin/audit/admin-audit.service.js';
import { createAdminAuthorization } from './modules/admin/common/authorization.js';
import { createIdentityVerifications } from './modules/admin/common/identity-verification.js';
import { createLifecycleService } from './modules/admin/lifecycle/lifecycle.service.js';
import { createLostDeviceService } from './modules/admin/lost-device/lost-device.service.js';
import { createReportSnapshotJob } from './modules/admin/reports/report-snapshot.job.js';
import { reportsRepository } from './modules/admin/reports/reports.repository.js';
import { createReportsService } from './modules/admin/reports/reports.service.js';
import { createTokensService } from './modules/admin/tokens/tokens.service.js';
import { createUsersService } from './modules/admin/users/users.service.js';
import { createChainVerificationService } from './modules/audit/chain-verification.service.js';
import { createBypassCodesService } from './modules/bypass-codes/bypass-codes.service.js';
import type { FirstDeviceGate } from './modules/common/self-service.js';
import { createErrorTranslator } from './modules/common/error-translator.js';
import { createDevicesService } from './modules/devices/devices.service.js';
import { createDirectorySync } from './modules/directory/directory-sync.js';
import { directoryRepository } from './modules/directory/directory.repository.js';
import { createEnrolmentPassService } from './modules/enrolment-pass/enrolment-pass.service.js';
import { portalReadinessChecks } from './modules/health/health.checks.js';
import { createHealthService } from './modules/health/health.service.js';
import { createMetrics, type PortalMetrics } from './modules/metrics/metrics.registry.js';
import { cacheLookupRecorder, withAuthenticationMetrics, withProviderMetrics } from './modules/metrics/metrics.recorders.js';
import { createNotificationsService } from './modules/notifications/notifications.service.js';
import { createPhonesService } from './modules/phones/phones.service.js';
import { createJitProvisioning } from './modules/provisioning/jit.service.js';
import { createScimGroupsService } from './modules/scim/scim-groups.service.js';
import { createScimTokensService } from './modules/scim/scim-tokens.service.js';
import { createScimUsersService } from './modules/scim/scim-users.service.js';
import { createSessionsService, withSessionRevocation } from './modules/sessions/sessions.service.js';
import { createStepUpFlows } from './modules/step-up/step-up-flows.service.js';
import { createStepUpService } from './modules/step-up/step-up.service.js';
import { createVerificationService } from './modules/verification/verification.service.js';
import { loadAttestationTrust } from './modules/webauthn/attestation-trust.js';
import { createWebauthnPolicyService } from './modules/webauthn/webauthn-policy.service.js';
import { createWebauthnService } from './modules/webauthn/webauthn.service.js';
import { readCachesFor } from './read-caches.js';
import { buildAuditLog } from './services.audit.js';
import { buildAuthenticatorServices, buildPushService, pushDeliveryRecorder } from './services.push.js';
import { buildAdminUnits } from './services.units.js';
import { buildDefaultMethod } from './services.default-method.js';
import { buildFactorPolicy } from './services.factor-policy.js';
import { buildCampaigns } from './services.campaigns.js';

/**
 * The one translator of failures into answers, given to the error handler: it knows the provider's
 * refusals, which the error handler's layer may not import. Built from the configuration alone, so the
 * app installs it before the services exist.
 */
export function errorTranslator(config: AppConfig): ErrorTranslator {
  return createErrorTranslator({ stepUpMaxAgeSeconds: config.mfa.stepUpMaxAgeSeconds });
}

/** `mfa`: another provider than MFA_PROVIDER names (tests); `log`: where jobs report a failed run; `clock`: campaigns' and e-mail's time. */
export type ServicesOptions = { mfa?: MfaProvider; log?: Pick<FastifyBaseLogger, 'warn'>; clock?: () => Date };
type ServicesDatabase = Pick<DatabaseHandle, 'db' | 'url' | 'poolStats'>;

/**
 * What the application is made of, built once here and handed to the modules (Logto's `Libraries`): no
 * module builds its own collaborator, and only this file (through mfa/index.ts) knows which MFA
 * provider is in use. The embedded sign-in and the API share one audit log and one verification service
 * (one set of rate limits, kept in the database so every instance counts the same attempts).
 * `metrics`: the process's registry when the app is metered; null for a command or a test of one part.
 */
function buildServices(config: AppConfig, database: ServicesDatabase, opts: ServicesOptions, metrics: PortalMetrics | null) {
  const { db } = database;
  // Throttling and outages at the provider, metered where the retries happen.
  const onProviderRetry = ({ kind, waitMs }: { kind: string; waitMs: number }) => {
    metrics?.mfaProviderRetries.inc({ provider: config.mfaProvider, reason: kind });
    metrics?.mfaProviderRetryWaitSeconds.inc({ provider: config.mfaProvider, reason: kind }, waitMs / 1000);
  };
  const bundle = createMfa(config, db, { onProviderRetry, ...pushDeliveryRecorder(() => metrics) });
  const provider = opts.mfa ?? bundle.provider;
  const mfa = metrics ? withProviderMetrics(provider, metrics) : provider;
  const directory = directoryRepository(db);
  /** Per-user reads kept in memory while the database's change feed listens (the app starts the feed). */
  const readCaches = readCachesFor(config, bundle.cachesUserData, metrics ?? undefined);
  // Security notifications by e-mail: every audit append queues, in its own transaction, the e-mail the event causes.
  const notifications = createNotificationsService({
    db,
    config: config.notifications,
    portalUrl: config.publicUrl,
    localesDir,
    recipientOf: async (upn) => {
      const user = await directory.find(upn);
      return user?.email ? { email: user.email, displayName: user.displayName || null } : null;
    },
    serviceDesk: config.serviceDesk,
    now: opts.clock,
  });
  // The audit log; every append also queues, in its transaction, its e-mail and its event for each SIEM stream.
  const { audit, siem } = buildAuditLog(config, { db, notifications, metrics, log: opts.log });
  const { perUser, perAddress, windowSeconds } = config.mfa.verifyRateLimit;
  const verifyLimiter = (limit: number) => createDbRateLimiter(db, { name: 'verify', limit, intervalSeconds: windowSeconds });
  const limiters = { perUser: verifyLimiter(perUser), perAddress: verifyLimiter(perAddress) };
  // `sessions` is made below; a lockout happens only once requests are served.
  const onLockout = (upn: string) => sessions.revokeAll(upn, 'account_locked_out');
  const { factorPolicy, factorPolicyAdmin } = buildFactorPolicy({ db, mfa, audit }); // what each person may enrol and use
  const verification = createVerificationService({ mfa, audit, limiters, onLockout, factorUse: factorPolicy.usableNow });
  const stepUp = createStepUpService(db, { maxAgeSeconds: config.mfa.stepUpMaxAgeSeconds });
  const policy = createPolicy(config.roles);
  const locate = createIpLocator(config.ipLocations);
  const pushes = buildPushService(config, { db, mfa, directory, locate, metrics, assertUsable: factorPolicy.assertDeviceUsable });
  const rpUrl = new URL(config.publicUrl); // the WebAuthn relying party: RP ID = its host, expected origin = its origin
  // FIDO metadata (files the administrator supplies) is read and checked once; a bad file stops the start.
  const attestationTrust = loadAttestationTrust(config.webauthnMetadata);
  const webauthnPolicy = createWebauthnPolicyService({ db, audit, isProtected: policy.isProtected, attestationTrust });
  const { policy: firstDevicePolicy, windowDays } = config.provisioning.firstDevice;
  const passLimiter = createDbRateLimiter(db, { name: 'enrolment_pass', limit: 5, intervalSeconds: 900 });
  const { isProtected } = policy;
  const enrolmentPasses = createEnrolmentPassService({
    db,
    mfa,
    audit,
    policy: firstDevicePolicy,
    windowDays,
    limiter: passLimiter,
    isProtected,
  });
  // What any first device needs (a passkey too): one gate for every way of adding one.
  const firstDevice: FirstDeviceGate = { assertAllowed: (who, now) => enrolmentPasses.assertFirstDeviceAllowed(who, now) };
  const rp = { rpId: rpUrl.hostname, rpName: config.mfa.totpIssuer, origin: rpUrl.origin };
  const webauthn = createWebauthnService({ db, mfa, audit, stepUp, verification, policy: webauthnPolicy, rp, firstDevice, factorPolicy });
  // Revoked at the API (every instance) and the embedded provider's sessions (with Entra: Entra's sign-out and token lifetimes).
  const sessions = createSessionsService({
    db,
    ...(config.idp.mode === 'embedded' ? { endProviderSessions: createIdpSessionRevoker(db).revokeAll } : {}),
    ...(readCaches.revocations ? { cache: readCaches.revocations } : {}),
    endGrants: async (upn) => {
      await stepUp.endAll(upn);
      await enrolmentPasses.endGrants(upn);
    },
  });
  const auditVerification = createChainVerificationService(db, {
    ...(database.url ? { databaseUrl: database.url } : {}),
    ...(metrics ? { onFinished: (result) => metrics.auditChainVerifications.inc({ result }) } : {}),
  });
  // "Verify, then issue": the helpdesk's recent identity verifications, read from the audit log.
  const identityVerifications = createIdentityVerifications({
    audit,
    windowSeconds: config.mfa.helpdeskVerificationWindowSeconds,
    // A verification made before the administrator's sessions were ended does not outlive them.
    revokedBefore: (upn) => sessions.revokedBefore(upn),
  });
  const reports = createReportsService({ repo: reportsRepository(db), provider: mfa.name });
  const self = { mfa, audit, stepUp, verification, pushes, totpIssuer: config.mfa.totpIssuer, firstDevice, factorPolicy };
  // Administrative units: whom a helpdesk member reaches, read from the database on every request.
  const { scopes, ...adminUnits } = buildAdminUnits(config, { db, audit, policy, provider: mfa.name });
  const authorization = createAdminAuthorization({ audit, directory, policy, scopes, hasSecondFactor: secondFactorRule(config.idp) });
  const { inventory } = bundle;
  const [portalUrl, verifications] = [config.publicUrl, identityVerifications];
  const contactNotified = notifications.enabled && config.notifications.securityContact !== null;
  // Duo searches by exact name only: admin search reads the portal's directory instead.
  const userSearch = mfa.eachUserPage ? ('directory' as const) : ('provider' as const);
  const scimBaseUrl = `${config.publicUrl}scim/v2/`;
  const jobFailed = (what: string) => (err: unknown) => opts.log?.warn({ err }, `${what} failed; the next run tries again`);
  const shared = { config, db, mfa, metrics, audit, stepUp, verification, policy, pushes, directory, inventory, readCaches };
  const activityReport = createActivityReportService({ db, audit, mfa, sessions, contactNotified });
  const push = buildAuthenticatorServices(config, { self, audit, directory, activityReport, metrics, onLockout });
  const defaultMethod = buildDefaultMethod(config, { ...self, db }); // what a sign-in offers first
  const campaignParts = buildCampaigns({ db, mfa, audit, notifications, factorPolicy }, opts); // enrolment campaigns: banner, admin, mail
  const grants = { webauthn, webauthnPolicy, enrolmentPasses, identityVerifications, sessions, auditVerification, reports, notifications };
  return {
    ...shared,
    ...grants,
    scimTokens: createScimTokensService({ db, audit, envToken: config.provisioning.scimToken }),
    /** Approximate location of a client address (IP_LOCATIONS). */
    locate,
    /** A protected account may add its first device itself only with what the first-device policy allows. */
    protectedFirstDevice: (who: { upn: string; session: string }) => enrolmentPasses.protectedFirstDeviceAllowed(who),
    // Self-service (`api/me/...`): the caller's own account.
    devices: createDevicesService(self),
    defaultMethod,
    phones: createPhonesService(self),
    bypassCodes: createBypassCodesService(self),
    stepUpFlows: createStepUpFlows({
      ...self,
      // A protected account steps up with WebAuthn only when the administrator's policy says so.
      assertStepUpMethod: (ctx, method) => webauthnPolicy.assertStepUpMethod({ upn: ctx.upn, roles: ctx.roles }, method, ctx),
    }),
    activity: createActivityService({ audit, locate }),
    activityReport,
    ...push, // the portal's own authenticator app, and the pushes' server-sent events
    // Administration (`api/admin/...`): one policy, audit log and verification budgets with the rest.
    authorization,
    adminUsers: createUsersService({ ...shared, authorization, portalUrl, verifications, userSearch, scopes, factorPolicy }),
    ...{ scopes, ...adminUnits, factorPolicy, factorPolicyAdmin }, // administrative units; the factor policy
    ...campaignParts, // enrolment campaigns (the app starts and stops their scheduler)
    lostDevice: createLostDeviceService({ mfa, audit, portalUrl, sessions, verifications, factorPolicy }),
    tokens: createTokensService({ audit, directory, policy, authorization, inventory }),
    adminAudit: createAdminAuditService({ audit, auditVerification, csvMaxRows: config.audit.csvMaxRows }),
    lifecycle: createLifecycleService({ db, mfa, audit, sessions }),
    // Provisioning: just-in-time at the first getuserinfo (PROVISIONING=jit|both), SCIM 2.0 for the directory.
    jit: createJitProvisioning({ db, mfa, audit, config: config.provisioning }),
    scim:
      config.provisioning.mode === 'scim' || config.provisioning.mode === 'both'
        ? {
            baseUrl: scimBaseUrl,
            users: createScimUsersService({
              db,
              mfa,
              audit,
              sessions,
              forgetSessions: [stepUp.forgetAccount, pushes.forgetAccount, defaultMethod.forgetAccount],
              baseUrl: scimBaseUrl,
              hashPassword: config.idp.mode === 'embedded' ? hashPassword : null,
              adoption: { jit: config.provisioning.mode === 'both', ...config.provisioning.scimAdopt },
              isProtected,
            }),
            groups: createScimGroupsService({ db, audit, baseUrl: scimBaseUrl }),
          }
        : null,
    siem, // audit to a SIEM: a delivery loop per stream switched on (the app starts and stops them)
    // Jobs (the app starts and stops them). Duo cannot search by substring: admin search reads the
    // portal's directory, kept current by a paced sync.
    directorySync: config.duo
      ? createDirectorySync({ mfa, directory, ...config.duo.directorySync, onError: jobFailed('directory sync from the MFA provider') })
      : null,
    // The enrolment figures of each day, for the coverage report's history.
    reportSnapshots: createReportSnapshotJob({ reports, onError: jobFailed('report snapshot') }),
  };
}

export type Services = ReturnType<typeof buildServices>;

/** The collaborators without metrics: for a command-line tool, or a test that mounts one part. */
export function createServices(config: AppConfig, database: ServicesDatabase, opts: ServicesOptions = {}): Services {
  return buildServices(config, database, opts, null);
}

/** The app's collaborators, metered: one metrics registry for the process (HTTP, sign-in, MFA, provider calls, pool, Node). */
export function meteredServices(
  config: AppConfig,
  database: ServicesDatabase,
  opts: ServicesOptions = {},
): Services & { metrics: PortalMetrics } {
  const metrics = createMetrics({ database });
  return { ...buildServices(config, database, opts, metrics), metrics };
}

/**
 * The API's token verifiers, built once the app runs: with the embedded identity provider, from its
 * keys once it is mounted; with Entra ID, once the tenant is known.
 */
export async function tokenVerifiersFor(services: Services & { metrics: PortalMetrics }, at: { idp: EmbeddedIdp | undefined }) {
  const { config, db, metrics, sessions } = services;
  let verify = createTokenVerifier(await tokenVerifierOptions(config, at.idp));
  if (config.readCache) verify = withVerifiedTokenCache(verify, { onLookup: cacheLookupRecorder(metrics, 'token') });
  // Roles the directory (SCIM) no longer gives stop working on the next request, not when the token expires.
  verify = withDirectoryRoleBound(verify, scimRolesOf(db, config.provisioning.groupRoles, config.roles));
  // A token issued before its user's sessions were revoked (sign-out, ...) is refused; the profile call
  // still answers a disabled account's earlier token with its status (account disabled).
  return {
    verify: withAuthenticationMetrics(withSessionRevocation(verify, sessions), metrics),
    verifyProfile: withAuthenticationMetrics(
      withSessionRevocation(verify, sessions, { except: ['account_disabled', 'account_locked', 'account_locked_out'] }),
      metrics,
    ),
  };
}

/** The readiness probe's checks, built once the embedded provider's keys and the change feed exist. */
export function readinessChecks(services: Services, at: { idp: EmbeddedIdp | undefined; changeFeed: ChangeFeed | null }) {
  const { config, db } = services;
  return createHealthService(
    portalReadinessChecks({ config, db, publicJwks: at.idp?.publicJwks, mfaName: services.mfa.name, changeFeed: at.changeFeed }),
    { timeoutMs: config.databaseTimeouts.readinessMs },
  );
}

/**
 * The demo data (DEMO_DATA, embedded mode), run once at start-up before the app is built: the demo
 * staff, and what the chosen provider's own store needs of it (the bundle says which applies).
 */
export async function seedDemoData(config: AppConfig, database: Pick<DatabaseHandle, 'db'>): Promise<void> {
  if (config.idp.mode !== 'embedded' || !config.provisioning.demoData) return;
  const { builtinStore } = mfaDemoSeeds(config);
  await seedDemo(database.db, { password: config.idp.demoPassword, roles: config.roles, builtinStore });
}
