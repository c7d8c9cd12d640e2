import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { createTokenVerifier, localJwks, remoteJwks, type TokenVerifier } from './auth/token-verifier.js';
import { installErrorHandling } from './lib/errors.js';
import { localesDir as defaultLocalesDir, webDistDir } from './lib/paths.js';
import { registerEmbeddedIdp, type EmbeddedIdp } from './idp/index.js';
import { createMfaProvider, type MfaProvider } from './mfa/index.js';
import { createDbRateLimiter } from './mfa/rate-limit-store.js';
import { createVerificationService } from './mfa/verification.js';
import { createAuditService } from './modules/audit/audit.service.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { directoryRepository } from './modules/admin/directory.repository.js';
import { apiRoutes } from './modules/me/api.routes.js';
import { localesRoutes } from './modules/locales/locales.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { webRoutes } from './modules/web/web.routes.js';

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
  }
}

/** Logs the path without its query string: codes, states and e-mail addresses stay out of the logs. */
const requestSerializer = (req: { method: string; url: string; id: string; ip?: string }) => ({
  method: req.method,
  url: req.url.split('?')[0],
  reqId: req.id,
  remoteAddress: req.ip,
});

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

/**
 * The whole portal as one Fastify app: security headers, error handling, the embedded identity
 * provider (when configured), the API and the SPA. `server.ts` adds TLS, listening and shutdown.
 */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    ...(opts.https ? { https: opts.https } : {}),
    logger: opts.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-client-claims"]'],
      serializers: { req: requestSerializer },
    },
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    routerOptions: { maxParamLength: 200 },
  }) as unknown as FastifyInstance;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
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
  await app.register(rateLimit, { global: false });

  // One MFA provider, audit log and verification service (one set of rate limits) for the embedded
  // sign-in, which asks for the second factor, and the API.
  const mfa = opts.mfa ?? createMfaProvider(config, database.db);
  const audit = createAuditService(database.db);
  const { perUser, perAddress, windowSeconds } = config.mfa.verifyRateLimit;
  const verification = createVerificationService({
    mfa,
    audit,
    limits: config.mfa.verifyRateLimit,
    // Budgets in the database: every instance sharing it counts the same attempts.
    limiters: {
      perUser: createDbRateLimiter(database.db, { name: 'verify', limit: perUser, intervalSeconds: windowSeconds }),
      perAddress: createDbRateLimiter(database.db, { name: 'verify', limit: perAddress, intervalSeconds: windowSeconds }),
    },
  });

  let idp: EmbeddedIdp | undefined;
  let verify: TokenVerifier;
  if (config.idp.mode === 'embedded') {
    idp = await registerEmbeddedIdp(app, { db: database.db, config, mfa, audit, verification });
    verify = createTokenVerifier({ issuers: [idp.issuer], audience: config.idp.audience, jwks: localJwks(idp.publicJwks) });
  } else {
    const { tenantId, authorityHost, audience } = config.idp;
    verify = createTokenVerifier({
      issuers: [`${authorityHost}/${tenantId}/v2.0`, `https://sts.windows.net/${tenantId}/`],
      audience,
      jwks: remoteJwks(`${authorityHost}/${tenantId}/discovery/v2.0/keys`),
    });
  }
  app.decorate('idp', idp);
  app.decorate('verifyToken', verify);
  app.decorate('mfa', mfa);

  await app.register(settingsRoutes, { prefix: config.basePath.replace(/\/$/, ''), config });
  await app.register(accountRoutes, { prefix: config.basePath.replace(/\/$/, ''), config, verify, mfa, directory: directoryRepository(database.db) });
  await app.register(apiRoutes, { prefix: config.basePath.replace(/\/$/, ''), config, verify, mfa, db: database.db, audit, verification });
  await app.register(localesRoutes, { prefix: config.basePath.replace(/\/$/, ''), db: database.db, localesDir: opts.localesDir ?? defaultLocalesDir });
  await app.register(webRoutes, { config, webRoot: opts.webRoot ?? webDistDir });

  return app;
}
