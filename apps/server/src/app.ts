import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { apiRoutes } from './api-routes.js';
import type { TokenVerifier } from './auth/token-verifier.js';
import type { ChangeFeed } from './db/change-feed.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './lib/errors.js';
import { installRequestLogging, loggerOptions, requestIdGenerator } from './lib/logging.js';
import { installRequestMeta } from './lib/request-meta.js';
import { sharedRateLimitStore } from './lib/rate-limit/shared-rate-limit-store.js';
import { installSecurityHeaders } from './security-headers.js';
import { localesDir as defaultLocalesDir, webDistDir } from './lib/paths.js';
import { registerEmbeddedIdp, type EmbeddedIdp } from './idp/index.js';
import type { MfaProvider } from './mfa/index.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { localesRoutes } from './modules/locales/locales.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { webRoutes } from './modules/web/web.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import type { HealthService } from './modules/health/health.service.js';
import { installHttpMetrics } from './modules/metrics/metrics.hooks.js';
import type { PortalMetrics } from './modules/metrics/metrics.registry.js';
import { metricsRoutes } from './modules/metrics/metrics.routes.js';
import { buildMetricsServer } from './modules/metrics/metrics.server.js';
import { canonicalScimUrl } from './modules/scim/scim-paths.js';
import { scimDisabledRoutes, scimRoutes } from './modules/scim/scim.routes.js';
import type { CampaignScheduler } from './modules/campaigns/campaign-scheduler.js';
import type { NotificationSender } from './modules/notifications/notification-sender.js';
import type { SiemService } from './modules/siem/siem.service.js';
import { installReadCaches } from './read-caches.js';
import { meteredServices, readinessChecks, tokenVerifiersFor, errorTranslator } from './services.js';

export { createServices, seedDemoData, type Services } from './services.js';

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
  /** The time the enrolment campaigns and the e-mail sender go by (tests move it); the real time by default. */
  clock?: () => Date;
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
    /** Audit to a SIEM: the delivery of each stream switched on; stopped on close. */
    siem: SiemService;
    /** The enrolment campaigns' e-mails and progress; stopped on close. */
    campaignScheduler: CampaignScheduler;
  }
}

/**
 * The whole portal as one Fastify app: security headers, error handling, the embedded identity
 * provider (when configured), the API and the SPA, and the start and stop of what runs in the
 * background. Every collaborator comes from the composition root (services.ts); `server.ts` adds TLS,
 * listening and shutdown.
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
    // SCIM clients that spell an endpoint in another letter case or with a trailing slash reach it.
    rewriteUrl: (req) => canonicalScimUrl(req.url ?? '/', `${config.basePath.replace(/\/$/, '')}/scim/v2`),
    // Errors raised before routing, and requests Node refuses itself (431, 408, 400): the error shape too.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }) as unknown as FastifyInstance;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app, { translate: errorTranslator(config) });
  installRequestLogging(app, { requestIdHeader: config.requestIdHeader });
  // The User-Agent of the request in progress, for every audit event it causes.
  installRequestMeta(app);
  const services = meteredServices(config, database, {
    ...(opts.mfa ? { mfa: opts.mfa } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    log: app.log,
  });
  const { metrics, mfa } = services;
  installHttpMetrics(app, metrics);

  await installSecurityHeaders(app, config);
  // Counters in the database: every instance sharing it counts the same attempts.
  await app.register(rateLimit, { global: false, store: sharedRateLimitStore(database.db) });

  // Shutdown stops the verification workers of the audit hash chain (their runs end as interrupted).
  app.addHook('onClose', async () => services.auditVerification.close());

  const idp =
    config.idp.mode === 'embedded'
      ? await registerEmbeddedIdp(app, {
          db: database.db,
          config,
          mfa,
          audit: services.audit,
          verification: services.verification,
          webauthn: services.webauthn,
          sessions: services.sessions,
          pushes: services.pushes,
          pushEvents: services.pushEvents,
          defaultMethod: services.defaultMethod,
          factorPolicy: services.factorPolicy,
        })
      : undefined;
  const { verify, verifyProfile } = await tokenVerifiersFor(services, { idp });
  // The pushes' server-sent events hear the change feed too; their streams end before the server closes.
  const { pushEvents } = services;
  installReadCaches(app, database, services.readCaches.all, metrics, config.changeFeedHeartbeatMs, [pushEvents.listener]);
  app.addHook('preClose', async () => pushEvents.close());
  app.decorate('idp', idp);
  app.decorate('verifyToken', verify);
  app.decorate('mfa', mfa);
  app.decorate('metrics', metrics);

  // Operations: probes and metrics (also under the base path, for a proxy that forwards only it).
  // Only the read caches need the feed to be right; the pushes' streams poll while it is down.
  const health = readinessChecks(services, { idp, changeFeed: config.readCache ? app.changeFeed : null });
  app.decorate('health', health);
  // While draining, every answer closes its connection: a keep-alive client's next request opens a new
  // one, which the load balancer no longer sends here.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (health.draining) reply.header('connection', 'close');
    return payload;
  });
  const metricsAccess = config.metrics.port === null && config.metrics.token !== null ? { token: config.metrics.token } : (false as const);
  const metricsServer = config.metrics.port === null ? null : await buildMetricsServer(config, metrics);
  app.decorate('metricsServer', metricsServer);
  if (metricsServer) app.addHook('onClose', async () => metricsServer.close());
  for (const at of new Set(['', config.basePath.replace(/\/$/, '')])) {
    await app.register(healthRoutes, { prefix: at, health });
    await app.register(metricsRoutes, { prefix: at, metrics, access: metricsAccess });
  }

  // Background jobs: started with the app, stopped when it closes.
  const { directorySync, reportSnapshots } = services;
  if (directorySync) {
    directorySync.start();
    app.addHook('onClose', async () => directorySync.stop());
  }
  reportSnapshots.start();
  app.addHook('onClose', async () => reportSnapshots.stop());

  // Security notifications: the outbox is sent off the request path; stopped (pass in progress
  // finished) when the app closes, so a graceful shutdown never cuts a message in half.
  const sender = services.notifications.sender;
  app.decorate('notificationSender', sender);
  if (sender) {
    app.addHook('onReady', async () => sender.start());
    app.addHook('onClose', async () => sender.stop());
  }
  // Audit to a SIEM, sent the same way; stopping cuts a send in progress (its events stay pending).
  const { siem } = services;
  app.decorate('siem', siem);
  app.addHook('onReady', async () => siem.start());
  app.addHook('onClose', async () => siem.stop());
  // Enrolment campaigns: their e-mails go through the outbox above; a pass in progress ends before close.
  const { campaignScheduler } = services;
  app.decorate('campaignScheduler', campaignScheduler);
  app.addHook('onReady', async () => campaignScheduler.start());
  app.addHook('onClose', async () => campaignScheduler.stop());

  const prefix = config.basePath.replace(/\/$/, '');
  await app.register(settingsRoutes, { prefix, config });
  await app.register(accountRoutes, {
    prefix,
    config,
    verify: verifyProfile,
    mfa,
    directory: services.directory,
    jit: services.jit,
    userData: services.readCaches.userData,
  });
  await app.register(apiRoutes, { prefix, services, verify });
  // Provisioning: SCIM 2.0 for the directory (the admin screens hold its tokens).
  if (services.scim) {
    const { scim } = services;
    await app.register(scimRoutes, {
      prefix: `${prefix}/scim/v2`,
      tokens: services.scimTokens,
      users: scim.users,
      groups: scim.groups,
      audit: services.audit,
      baseUrl: scim.baseUrl,
    });
  } else {
    await app.register(scimDisabledRoutes, { prefix: `${prefix}/scim/v2` });
  }
  await app.register(localesRoutes, { prefix, db: database.db, localesDir: opts.localesDir ?? defaultLocalesDir });
  await app.register(webRoutes, { config, webRoot: opts.webRoot ?? webDistDir });

  return app;
}
