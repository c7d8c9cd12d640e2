import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { TokenVerifier } from '../../auth/token-verifier.js';
import type { Database } from '../../db/schema.js';
import { seedDemoHardwareTokens } from '../../mfa/builtin/demo-tokens.js';
import { loadMfaKeys } from '../../mfa/mfa-keys.js';
import type { MfaProvider } from '../../mfa/port.js';
import { createVerificationService, type VerificationService } from '../../mfa/verification.js';
import { createAuditService, type AuditService } from '../audit/audit.service.js';
import { createStepUpService, type StepUpService } from '../step-up/step-up.service.js';
import { createPolicy } from '../../auth/policy.js';
import { createInventory } from '../../mfa/builtin/inventory.js';
import { adminRoutes } from '../admin/admin.routes.js';
import { createAdminService } from '../admin/admin.service.js';
import { directoryRepository } from '../admin/directory.repository.js';
import { createPushService } from '../push/push.service.js';
import { createMeService } from './me.service.js';
import { meRoutes } from './me.routes.js';

export interface ApiRoutesOptions {
  config: AppConfig;
  verify: TokenVerifier;
  mfa: MfaProvider;
  db: Kysely<Database>;
  /** Share these with other callers (e.g. the embedded sign-in) instead of creating them here. */
  audit?: AuditService;
  stepUp?: StepUpService;
  verification?: VerificationService;
  /** Clock of the services (tests). */
  now?: () => Date;
}

/**
 * The JSON API under `<basePath>api/`: the self-service routes (`api/me/...`), the administration
 * routes (`api/admin/...`) and their OpenAPI document (`api/docs`), generated from the routes' zod schemas. In the embedded mode with the
 * builtin provider, it also seeds the demo Duo D100 inventory (idempotent) so tokens can be claimed.
 */
export async function apiRoutes(app: FastifyInstance, opts: ApiRoutesOptions): Promise<void> {
  const { config, db, mfa } = opts;
  // Registered here, before the routes, so it documents every route of this plugin.
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'MFA self-service portal API',
        version: '1.0.0',
        description: 'Self-service management of second factors. Errors are { code, message, details }.',
      },
      servers: [{ url: new URL(config.publicUrl).origin }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });

  if (config.idp.mode === 'embedded' && mfa.name === 'builtin') await seedDemoHardwareTokens(db, loadMfaKeys(config).box);

  const audit = opts.audit ?? createAuditService(db);
  const stepUp = opts.stepUp ?? createStepUpService(db, { maxAgeSeconds: config.mfa.stepUpMaxAgeSeconds });
  const verification = opts.verification ?? createVerificationService({ mfa, audit, limits: config.mfa.verifyRateLimit });
  const pushes = createPushService(db, mfa);
  const service = createMeService({ mfa, audit, stepUp, verification, pushes, totpIssuer: config.mfa.totpIssuer, now: opts.now });

  const policy = createPolicy(config.roles);
  await app.register(meRoutes, { prefix: '/api/me', verify: opts.verify, service, policy, audit });

  // Administration (issue 5): the same policy, audit log and verification budgets.
  const adminService = createAdminService({
    mfa,
    audit,
    verification,
    directory: directoryRepository(db),
    policy,
    pushes,
    inventory: mfa.name === 'builtin' ? createInventory(db, loadMfaKeys(config).box) : null,
    portalUrl: config.publicUrl,
    now: opts.now,
  });
  await app.register(adminRoutes, { prefix: '/api/admin', verify: opts.verify, service: adminService });

  app.get('/api/docs', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
}
