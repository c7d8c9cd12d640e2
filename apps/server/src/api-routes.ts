import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Services } from './services.js';
import type { TokenVerifier } from './auth/token-verifier.js';
import { secondFactorRule } from './auth/second-factor.js';
import type { AppConfig } from './config.js';
import { activityRoutes } from './modules/activity/activity.routes.js';
import { createActivityService } from './modules/activity/activity.service.js';
import { createActivityReportService } from './modules/activity/activity-report.service.js';
import { notificationsAdminRoutes } from './modules/notifications/notifications.routes.js';
import { adminAuditRoutes } from './modules/admin/audit/admin-audit.routes.js';
import { createAdminAuditService } from './modules/admin/audit/admin-audit.service.js';
import { createAdminAuthorization } from './modules/admin/common/authorization.js';
import { lostDeviceRoutes } from './modules/admin/lost-device/lost-device.routes.js';
import { createLostDeviceService } from './modules/admin/lost-device/lost-device.service.js';
import { tokenRoutes } from './modules/admin/tokens/tokens.routes.js';
import { createTokensService } from './modules/admin/tokens/tokens.service.js';
import { adminUserRoutes } from './modules/admin/users/users.routes.js';
import { createUsersService } from './modules/admin/users/users.service.js';
import { bypassCodeRoutes } from './modules/bypass-codes/bypass-codes.routes.js';
import { createBypassCodesService } from './modules/bypass-codes/bypass-codes.service.js';
import { capabilitiesRoutes } from './modules/capabilities/capabilities.routes.js';
import { deviceRoutes } from './modules/devices/devices.routes.js';
import { createDevicesService } from './modules/devices/devices.service.js';
import { phoneRoutes } from './modules/phones/phones.routes.js';
import { createPhonesService } from './modules/phones/phones.service.js';
import { createStepUpFlows } from './modules/step-up/step-up-flows.service.js';
import { stepUpRoutes } from './modules/step-up/step-up.routes.js';
import { webauthnAdminRoutes, webauthnRoutes } from './modules/webauthn/webauthn.routes.js';
import { scimTokensAdminRoutes } from './modules/admin/scim-tokens/scim-tokens.routes.js';
import { enrolmentPassRoutes } from './modules/enrolment-pass/enrolment-pass.routes.js';
import { sessionRoutes } from './modules/sessions/sessions.routes.js';
import { createLifecycleService } from './modules/admin/lifecycle/lifecycle.service.js';
import { lifecycleRoutes } from './modules/admin/lifecycle/lifecycle.routes.js';
import { reportsRoutes } from './modules/admin/reports/reports.routes.js';

/** The OpenAPI document (`api/docs`) of the JSON API, generated from the routes' zod schemas. */
function openApi(config: AppConfig) {
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'MFA self-service portal API',
        version: '1.0.0',
        description: 'Self-service management of second factors. Errors are { code, message, details }.',
      },
      servers: [{ url: new URL(config.publicUrl).origin }],
      components: { securitySchemes: { bearerAuth: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  };
}

/**
 * The JSON API under `<basePath>api/`: every module's routes and their OpenAPI document (`api/docs`),
 * registered after the swagger plugin in one scope so the document lists every route of it.
 */
export async function apiRoutes(app: FastifyInstance, opts: { services: Services; verify: TokenVerifier }): Promise<void> {
  const { services, verify } = opts;
  const { config, mfa, audit, stepUp, verification, policy, pushes, directory, inventory } = services;
  const { auditVerification, enrolmentPasses, scimTokens, webauthn, webauthnPolicy, identityVerifications } = services;
  await app.register(swagger, openApi(config));

  // Self-service (`api/me/...`): the caller's own account.
  const firstDevice = {
    assertAllowed: (who: { upn: string; session: string }, now: Date) => enrolmentPasses.assertFirstDeviceAllowed(who, now),
  };
  const self = { mfa, audit, stepUp, verification, pushes, totpIssuer: config.mfa.totpIssuer, firstDevice };
  const me = {
    prefix: '/api/me',
    verify,
    policy,
    audit,
    protectedFirstDevice: (who: { upn: string; session: string }) => enrolmentPasses.protectedFirstDeviceAllowed(who),
  };
  await app.register(deviceRoutes, { ...me, service: createDevicesService(self) });
  await app.register(phoneRoutes, { ...me, service: createPhonesService(self) });
  await app.register(capabilitiesRoutes, { prefix: '/api/me', verify, mfa });
  await app.register(bypassCodeRoutes, { ...me, service: createBypassCodesService(self) });
  // A protected account steps up with WebAuthn only when the administrator's policy says so (issue 18).
  const assertStepUpMethod = (
    ctx: { upn: string; roles: readonly string[]; requestId: string; clientAddress: string | null },
    method: 'passcode' | 'bypass' | 'push',
  ) => webauthnPolicy.assertStepUpMethod({ upn: ctx.upn, roles: ctx.roles }, method, ctx);
  await app.register(stepUpRoutes, { ...me, service: createStepUpFlows({ ...self, assertStepUpMethod }) });
  await app.register(webauthnRoutes, { ...me, service: webauthn });
  await app.register(activityRoutes, {
    ...me,
    service: createActivityService({ audit, locate: services.locate }),
    reports: createActivityReportService({
      db: services.db,
      audit,
      mfa,
      sessions: services.sessions,
      contactNotified: services.notifications.enabled && config.notifications.securityContact !== null,
    }),
  });
  await app.register(enrolmentPassRoutes, { prefix: '/api/me', verify, service: enrolmentPasses });
  await app.register(sessionRoutes, { prefix: '/api/me', verify, audit, sessions: services.sessions });

  // Administration (`api/admin/...`): one policy, audit log and verification budgets with the rest.
  const authorization = createAdminAuthorization({ audit, directory, policy, hasSecondFactor: secondFactorRule(config.idp) });
  const admin = { prefix: '/api/admin', verify, authorization };
  const portalUrl = config.publicUrl;
  await app.register(adminUserRoutes, {
    ...admin,
    service: createUsersService({
      mfa,
      audit,
      verification,
      directory,
      policy,
      authorization,
      pushes,
      portalUrl,
      verifications: identityVerifications,
      // Duo searches by exact name only: admin search reads the portal's directory instead (issue 16).
      userSearch: mfa.eachUserPage ? 'directory' : 'provider',
    }),
  });
  await app.register(lostDeviceRoutes, {
    ...admin,
    service: createLostDeviceService({ mfa, audit, portalUrl, sessions: services.sessions, verifications: identityVerifications }),
  });
  await app.register(tokenRoutes, { ...admin, service: createTokensService({ audit, directory, policy, authorization, inventory }) });
  await app.register(adminAuditRoutes, {
    ...admin,
    service: createAdminAuditService({ audit, auditVerification, csvMaxRows: config.audit.csvMaxRows }),
  });
  // Reports (issue 19): coverage over time and lists, with CSV.
  await app.register(reportsRoutes, { ...admin, service: services.reports });
  // Account lifecycle and SCIM tokens (issue 15).
  await app.register(lifecycleRoutes, {
    prefix: '/api/admin/users',
    verify,
    authorization,
    lifecycle: createLifecycleService({ db: services.db, mfa, audit, sessions: services.sessions }),
    passes: enrolmentPasses,
    verifications: identityVerifications,
  });
  await app.register(scimTokensAdminRoutes, {
    prefix: '/api/admin/scim-tokens',
    verify,
    authorization,
    tokens: scimTokens,
    endpoint: `${config.publicUrl}scim/v2`,
  });
  await app.register(notificationsAdminRoutes, { ...admin, prefix: '/api/admin/notifications', notifications: services.notifications });
  await app.register(webauthnAdminRoutes, {
    prefix: '/api/admin/webauthn',
    verify,
    authorization,
    policyService: webauthnPolicy,
  });

  app.get('/api/docs', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
}
