import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { resolveTenantId } from './auth/entra-tenant.js';
import { apiRoutes } from './api-routes.js';
import {
  createTokenVerifier,
  localJwks,
  remoteJwks,
  scopeValueOf,
  withVerifiedTokenCache,
  type TokenVerifier,
} from './auth/token-verifier.js';
import { startChangeFeed, type ChangeFeed } from './db/change-feed.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './lib/errors.js';
import { PERMISSIONS_POLICY } from './lib/permissions-policy.js';
import { installRequestLogging, loggerOptions, requestIdGenerator } from './lib/logging.js';
import { installRequestMeta } from './lib/request-meta.js';
import { sharedRateLimitStore } from './lib/shared-rate-limit-store.js';
import { localesDir as defaultLocalesDir, webDistDir } from './lib/paths.js';
import { registerEmbeddedIdp, type EmbeddedIdp } from './idp/index.js';
import { hashPassword } from './idp/password.js';
import { seedDemoHardwareTokens } from './mfa/builtin/demo-tokens.js';
import { seedDemoAuthenticatorSecrets } from './demo/demo-authenticators.js';
import { createMfaProvider, type MfaProvider } from './mfa/index.js';
import { loadMfaKeys } from './mfa/mfa-keys.js';
import { createDirectorySync } from './modules/directory/directory-sync.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { localesRoutes } from './modules/locales/locales.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { webRoutes } from './modules/web/web.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { portalReadinessChecks } from './modules/health/health.checks.js';
import { createHealthService, type HealthService } from './modules/health/health.service.js';
import { installHttpMetrics } from './modules/metrics/metrics.hooks.js';
import { createMetrics, type PortalMetrics } from './modules/metrics/metrics.registry.js';
import { cacheLookupRecorder, withAuthenticationMetrics, withProviderMetrics } from './modules/metrics/metrics.recorders.js';
import { metricsRoutes } from './modules/metrics/metrics.routes.js';
import { buildMetricsServer } from './modules/metrics/metrics.server.js';
import { createScimGroupsService } from './modules/scim/scim-groups.service.js';
import { createScimUsersService } from './modules/scim/scim-users.service.js';
import { scimDisabledRoutes, scimRoutes } from './modules/scim/scim.routes.js';
import { createJitProvisioning } from './modules/provisioning/jit.service.js';
import { withSessionRevocation } from './modules/sessions/sessions.service.js';
import { withDirectoryRoleBound } from './auth/directory-role-bound.js';
import { scimRolesOf } from './idp/accounts.js';
import { createReportSnapshotJob } from './modules/admin/reports/report-snapshot.job.js';

import { createServices } from './services.js';
import type { ReadCache } from './lib/read-cache.js';
import type { NotificationSender } from './modules/notifications/notification-sender.js';

export { createServices, type Services } from './services.js';

export interface AppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  https?: { key: string | Buffer; cert: string | Buffer } | null;
  /** Where the built SPA lives (tests point this at a fixture). */
  webRoot?: string;
  localesDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** Override the MFA provider (tests of later adapters). */
  mfa?: MfaProvider;
}

declare module 'fastify' {
  interface FastifyInstance {
    idp: EmbeddedIdp | undefined;
    verifyToken: TokenVerifier;
    mfa: MfaProvider;
    metrics: PortalMetrics;
    health: HealthService;
    /** GET /metrics alone, for METRICS_PORT (server.ts listens on it); null when not configured. */
    metricsServer: FastifyInstance | null;
    /** The database's change feed that keeps the per-user read caches true (null with READ_CACHE=false). */
    changeFeed: ChangeFeed | null;
    /** The security notification sender (null when SMTP_URL is unset); stopped on close. */
    notificationSender: NotificationSender | null;
  }
}

function contentSecurityPolicy(config: AppConfig) {
  const idpOrigin = config.idp.mode === 'entra' ? [new URL(config.idp.authorityHost).origin] : [];
  return {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'"],
      'connect-src': ["'self'", ...idpOrigin],
      'frame-src': ["'self'", ...idpOrigin],
      'worker-src': ["'self'"],
      'manifest-src': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
      'base-uri': ["'self'"],
      'object-src': ["'none'"],
      'upgrade-insecure-requests': [],
    },
  };
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whose cached reads a successful change through this instance may have touched: the signed-in caller
 * (self-service), and the user an administration route acts on. Changes of other kinds (SCIM, the
 * sign-in pages, an administrator's change found by a token's serial) reach the caches through the
 * change feed, like a change made on another instance: none of their callers reads these caches.
 */
function usersTouchedBy(request: FastifyRequest, reply: FastifyReply): string[] {
  if (READS.has(request.method) || reply.statusCode >= 400) return [];
  const caller = (request as { caller?: { upn?: string } }).caller;
  if (!caller?.upn) return [];
  const users = [caller.upn];
  const target = (request.params as { upn?: unknown } | undefined)?.upn;
  if (typeof target === 'string' && request.routeOptions.url?.includes('/api/admin/users/:upn')) users.push(target.trim().toLowerCase());
  return users;
}

/**
 * The per-user read caches follow the database's change feed, which names the users every committed
 * change touched, on every instance. A change made through this instance also drops the reads of the
 * users it touched before its answer leaves: their next request here sees it, whatever the feed's
 * delay. Only an authenticated change that succeeded does: anyone may send a request that fails.
 */
function installReadCaches(
  app: FastifyInstance,
  database: DatabaseHandle,
  caches: ReadCache<unknown>[],
  metrics: PortalMetrics,
  heartbeatMs: number,
): void {
  if (caches.length === 0) return void app.decorate('changeFeed', null);
  const log = app.log.child({ module: 'change-feed' });
  const feed = startChangeFeed(database, caches, {
    heartbeatMs,
    onState: (listening, state) => {
      metrics.changeFeedListening.set(listening ? 1 : 0);
      if (listening) log.debug('listening to the change feed: per-user reads are kept');
      else log.warn({ state }, 'the change feed is not heard: per-user reads are not kept until it is back');
    },
    onHeartbeatMissed: () => metrics.changeFeedHeartbeatsMissed.inc(),
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const users = usersTouchedBy(request, reply);
    if (users.length > 0) for (const cache of caches) cache.invalidate(users);
    return payload;
  });
  app.addHook('onClose', async () => feed.stop());
  app.decorate('changeFeed', feed);
}

/**
 * The whole portal as one Fastify app: security headers, error handling, the embedded identity
 * provider (when configured), the API and the SPA. `server.ts` adds TLS, listening and shutdown.
 */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    ...(opts.https ? { https: opts.https } : {}),
    logger: opts.logger ?? loggerOptions(config),
    // One line per completed request (installRequestLogging), with the route pattern and duration.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdGenerator(config.requestIdHeader),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    routerOptions: { maxParamLength: 200 },
    // Errors raised before routing, and requests Node refuses itself (431, 408, 400): the error shape too.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }) as unknown as FastifyInstance;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installRequestLogging(app, { requestIdHeader: config.requestIdHeader });
  // The User-Agent of the request in progress, for every audit event it causes (issue 19).
  installRequestMeta(app);
  // One metrics registry for the process: HTTP, sign-in and MFA outcomes, provider calls, pool, Node.
  const metrics = createMetrics({ database });
  installHttpMetrics(app, metrics);

  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
  });
  // Every response, the provider's hijacked ones too (written to the raw response, like helmet's).
  app.addHook('onRequest', async (_request, reply) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
  });
  // The silent-renewal iframe loads the provider's authorize endpoint and the redirect bridge page
  // from this same origin: those two (and only those) may be framed by the portal itself.
  app.addHook('onRequest', async (request, reply) => {
    const p = request.url.split('?')[0] ?? '';
    if (p === `${config.basePath}auth-bridge.html` || p === `${config.basePath}idp/auth` || p.startsWith(`${config.basePath}idp/auth/`)) {
      // helmet writes to the raw response (so hijacked responses of the provider carry them too).
      const csp = String(reply.raw.getHeader('content-security-policy') ?? '').replace("frame-ancestors 'none'", "frame-ancestors 'self'");
      reply.raw.setHeader('content-security-policy', csp);
      reply.raw.setHeader('x-frame-options', 'SAMEORIGIN');
    }
  });
  // Counters in the database: every instance sharing it counts the same attempts.
  await app.register(rateLimit, { global: false, store: sharedRateLimitStore(database.db) });

  const mfa = withProviderMetrics(
    opts.mfa ??
      createMfaProvider(config, database.db, {
        // Throttling and outages at the provider, metered where the retries happen.
        onProviderRetry: ({ kind, waitMs }) => {
          metrics.mfaProviderRetries.inc({ provider: config.mfaProvider, reason: kind });
          metrics.mfaProviderRetryWaitSeconds.inc({ provider: config.mfaProvider, reason: kind }, waitMs / 1000);
        },
      }),
    metrics,
  );
  const services = createServices(config, database.db, mfa, metrics, database.url);
  // Shutdown stops the verification workers of the audit hash chain (their runs end as interrupted).
  app.addHook('onClose', async () => services.auditVerification.close());
  const { audit, verification } = services;
  // The demo Duo D100 inventory (idempotent), so tokens can be claimed in the embedded mode.
  if (config.idp.mode === 'embedded' && mfa.name === 'builtin' && config.provisioning.demoData) {
    const { box } = loadMfaKeys(config);
    await seedDemoHardwareTokens(database.db, box);
    await seedDemoAuthenticatorSecrets(database.db, box);
  }

  let idp: EmbeddedIdp | undefined;
  let verify: TokenVerifier;
  if (config.idp.mode === 'embedded') {
    idp = await registerEmbeddedIdp(app, {
      db: database.db,
      config,
      mfa,
      audit,
      verification,
      webauthn: services.webauthn,
      sessions: services.sessions,
    });
    verify = createTokenVerifier({
      issuers: [idp.issuer],
      audience: config.idp.audience,
      jwks: localJwks(idp.publicJwks),
      requiredScope: scopeValueOf(config.idp.scope),
    });
  } else {
    const { authorityHost, audience } = config.idp;
    const tenantId = await resolveTenantId(authorityHost, config.idp.tenantId);
    verify = createTokenVerifier({
      issuers: [`${authorityHost}/${tenantId}/v2.0`, `https://sts.windows.net/${tenantId}/`],
      // One audience, or several separated by commas (the App ID URI and the client id while moving
      // the API registration from v1 to v2 tokens).
      audience: audience
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
      jwks: remoteJwks(`${authorityHost}/${tenantId}/discovery/v2.0/keys`),
      requiredScope: scopeValueOf(config.idp.scope),
    });
  }
  if (config.readCache) verify = withVerifiedTokenCache(verify, { onLookup: cacheLookupRecorder(metrics, 'token') });
  installReadCaches(app, database, services.readCaches.all, metrics, config.changeFeedHeartbeatMs);
  // Roles the directory (SCIM) no longer gives stop working on the next request, not when the token expires.
  verify = withDirectoryRoleBound(verify, scimRolesOf(database.db, config.provisioning.groupRoles, config.roles));
  // A token issued before its user's sessions were revoked (sign-out, ...) is refused (issue 14); the
  // profile call still answers a disabled account's earlier token with its status (account disabled).
  const verifyProfile = withAuthenticationMetrics(
    withSessionRevocation(verify, services.sessions, { except: ['account_disabled', 'account_locked', 'account_locked_out'] }),
    metrics,
  );
  verify = withAuthenticationMetrics(withSessionRevocation(verify, services.sessions), metrics);
  app.decorate('idp', idp);
  app.decorate('verifyToken', verify);
  app.decorate('mfa', mfa);
  app.decorate('metrics', metrics);

  // Operations: probes and metrics (also under the base path, for a proxy that forwards only it).
  const health = createHealthService(
    portalReadinessChecks({ config, db: database.db, publicJwks: idp?.publicJwks, mfaName: mfa.name, changeFeed: app.changeFeed }),
    { timeoutMs: config.databaseTimeouts.readinessMs },
  );
  app.decorate('health', health);
  const metricsAccess = config.metrics.port === null && config.metrics.token !== null ? { token: config.metrics.token } : (false as const);
  const metricsServer = config.metrics.port === null ? null : await buildMetricsServer(config, metrics);
  app.decorate('metricsServer', metricsServer);
  if (metricsServer) app.addHook('onClose', async () => metricsServer.close());
  for (const at of new Set(['', config.basePath.replace(/\/$/, '')])) {
    await app.register(healthRoutes, { prefix: at, health });
    await app.register(metricsRoutes, { prefix: at, metrics, access: metricsAccess });
  }

  // Duo cannot search by substring: admin search reads the portal's directory, kept current by a paced sync.
  if (config.duo) {
    const sync = createDirectorySync({
      mfa,
      directory: services.directory,
      everyMinutes: config.duo.directorySync.everyMinutes,
      callsPerSecond: config.duo.directorySync.callsPerSecond,
      onError: (err) => app.log.warn({ err }, 'directory sync from the MFA provider failed; the next run tries again'),
    });
    sync.start();
    app.addHook('onClose', async () => sync.stop());
  }

  // The enrolment figures of each day, for the coverage report's history (issue 19).
  const snapshots = createReportSnapshotJob({
    reports: services.reports,
    onError: (err) => app.log.warn({ err }, 'report snapshot failed; the next run tries again'),
  });
  snapshots.start();
  app.addHook('onClose', async () => snapshots.stop());

  // Security notifications: the outbox is sent off the request path; stopped (pass in progress
  // finished) when the app closes, so a graceful shutdown never cuts a message in half.
  const sender = services.notifications.sender;
  app.decorate('notificationSender', sender);
  if (sender) {
    app.addHook('onReady', async () => sender.start());
    app.addHook('onClose', async () => sender.stop());
  }

  const prefix = config.basePath.replace(/\/$/, '');
  await app.register(settingsRoutes, { prefix, config });
  // Just-in-time provisioning at the first getuserinfo (PROVISIONING=jit|both).
  const jit = createJitProvisioning({ db: database.db, mfa, audit, config: config.provisioning });
  await app.register(accountRoutes, {
    prefix,
    config,
    verify: verifyProfile,
    mfa,
    directory: services.directory,
    jit,
    userData: services.readCaches.userData,
  });
  await app.register(apiRoutes, { prefix, services, verify });
  // Provisioning (issue 15): SCIM 2.0 for the directory, and the admin screens' tokens for it.
  const scimBaseUrl = `${config.publicUrl}scim/v2/`;
  if (config.provisioning.mode === 'scim' || config.provisioning.mode === 'both') {
    await app.register(scimRoutes, {
      prefix: `${prefix}/scim/v2`,
      tokens: services.scimTokens,
      users: createScimUsersService({
        db: database.db,
        mfa,
        audit,
        sessions: services.sessions,
        baseUrl: scimBaseUrl,
        hashPassword: config.idp.mode === 'embedded' ? hashPassword : null,
        adoption: { jit: config.provisioning.mode === 'both', ...config.provisioning.scimAdopt },
        isProtected: services.policy.isProtected,
      }),
      groups: createScimGroupsService({ db: database.db, audit, baseUrl: scimBaseUrl }),
      audit,
      baseUrl: scimBaseUrl,
    });
  } else {
    await app.register(scimDisabledRoutes, { prefix: `${prefix}/scim/v2` });
  }
  await app.register(localesRoutes, { prefix, db: database.db, localesDir: opts.localesDir ?? defaultLocalesDir });
  await app.register(webRoutes, { config, webRoot: opts.webRoot ?? webDistDir });

  return app;
}
