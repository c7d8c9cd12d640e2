import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { openApiOptions } from './api-docs.js';
import type { Services } from './services.js';
import type { TokenVerifier } from './auth/token-verifier.js';
import { activityRoutes } from './modules/activity/activity.routes.js';
import { adminAuditRoutes } from './modules/admin/audit/admin-audit.routes.js';
import { campaignsAdminRoutes } from './modules/admin/campaigns/campaigns-admin.routes.js';
import { lifecycleRoutes } from './modules/admin/lifecycle/lifecycle.routes.js';
import { lostDeviceRoutes } from './modules/admin/lost-device/lost-device.routes.js';
import { notificationsAdminRoutes } from './modules/admin/notifications/notifications.routes.js';
import { factorPolicyAdminRoutes } from './modules/admin/factor-policy/factor-policy-admin.routes.js';
import { passkeyPolicyRoutes } from './modules/admin/passkey-policy/passkey-policy.routes.js';
import { reportsRoutes } from './modules/admin/reports/reports.routes.js';
import { scimTokensAdminRoutes } from './modules/admin/scim-tokens/scim-tokens.routes.js';
import { tokenRoutes } from './modules/admin/tokens/tokens.routes.js';
import { unitsRoutes } from './modules/admin/units/units.routes.js';
import { adminUserRoutes } from './modules/admin/users/users.routes.js';
import { bypassCodeRoutes } from './modules/bypass-codes/bypass-codes.routes.js';
import { authenticatorAppRoutes } from './modules/authenticator/authenticator-app.routes.js';
import { authenticatorRoutes } from './modules/authenticator/authenticator.routes.js';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes.js';
import { capabilitiesRoutes } from './modules/capabilities/capabilities.routes.js';
import { defaultMethodRoutes } from './modules/default-method/default-method.routes.js';
import { deviceRoutes } from './modules/devices/devices.routes.js';
import { enrolmentPassRoutes } from './modules/enrolment-pass/enrolment-pass.routes.js';
import { factorPolicyRoutes } from './modules/factor-policy/factor-policy.routes.js';
import { phoneRoutes } from './modules/phones/phones.routes.js';
import { pushEventRoutes } from './modules/push/push.routes.js';
import { sessionRoutes } from './modules/sessions/sessions.routes.js';
import { stepUpRoutes } from './modules/step-up/step-up.routes.js';
import { webauthnRoutes } from './modules/webauthn/webauthn.routes.js';

/**
 * The JSON API under `<basePath>api/`: every module's routes and their OpenAPI document (`api/docs`),
 * registered after the swagger plugin in one scope so the document lists every route of it. Only
 * registration: every collaborator comes built from the composition root (services.ts).
 */
export async function apiRoutes(app: FastifyInstance, opts: { services: Services; verify: TokenVerifier }): Promise<void> {
  const { services: s, verify } = opts;
  const { config, audit, policy, authorization, enrolmentPasses, identityVerifications, sessions } = s;
  await app.register(swagger, openApiOptions(config));

  // Self-service (`api/me/...`): the caller's own account.
  const me = { prefix: '/api/me', verify, policy, audit, protectedFirstDevice: s.protectedFirstDevice };
  await app.register(deviceRoutes, { ...me, service: s.devices });
  await app.register(phoneRoutes, { ...me, service: s.phones });
  await app.register(authenticatorRoutes, { ...me, service: s.authenticator });
  await app.register(pushEventRoutes, { prefix: '/api/me', verify, pushes: s.pushes, events: s.pushEvents });
  await app.register(capabilitiesRoutes, { prefix: '/api/me', verify, mfa: s.mfa });
  await app.register(defaultMethodRoutes, { prefix: '/api/me', verify, service: s.defaultMethod });
  await app.register(factorPolicyRoutes, { prefix: '/api/me', verify, service: s.factorPolicy });
  await app.register(campaignsRoutes, { prefix: '/api/me', verify, service: s.campaigns });
  await app.register(bypassCodeRoutes, { ...me, service: s.bypassCodes });
  await app.register(stepUpRoutes, { ...me, service: s.stepUpFlows });
  await app.register(webauthnRoutes, { ...me, service: s.webauthn });
  await app.register(activityRoutes, { ...me, service: s.activity, reports: s.activityReport });
  await app.register(enrolmentPassRoutes, { prefix: '/api/me', verify, service: enrolmentPasses });
  await app.register(sessionRoutes, { prefix: '/api/me', verify, audit, sessions });

  // Administration (`api/admin/...`).
  const admin = { prefix: '/api/admin', verify, authorization };
  await app.register(adminUserRoutes, { ...admin, service: s.adminUsers });
  await app.register(lostDeviceRoutes, { ...admin, service: s.lostDevice });
  await app.register(tokenRoutes, { ...admin, service: s.tokens });
  await app.register(adminAuditRoutes, { ...admin, service: s.adminAudit });
  // Reports: coverage over time and lists, with CSV; and how the audit trail reaches the SIEM.
  await app.register(reportsRoutes, { ...admin, service: s.reports, forUnits: s.reportsForUnits, auditStreams: s.siem });
  // Administrative units: who a unit holds and which Helpdesk Administrators serve it.
  await app.register(unitsRoutes, { ...admin, service: s.units, scopes: s.scopes });
  // The factor policy: global, and directory groups' overrides, with a preview of any change.
  await app.register(factorPolicyAdminRoutes, { ...admin, service: s.factorPolicyAdmin });
  // Enrolment campaigns: who is asked to add a device by when, and how far they have got.
  await app.register(campaignsAdminRoutes, { ...admin, service: s.campaignsAdmin });
  // Account lifecycle and SCIM tokens.
  await app.register(lifecycleRoutes, {
    prefix: '/api/admin/users',
    verify,
    authorization,
    lifecycle: s.lifecycle,
    passes: enrolmentPasses,
    verifications: identityVerifications,
  });
  await app.register(scimTokensAdminRoutes, {
    prefix: '/api/admin/scim-tokens',
    verify,
    authorization,
    tokens: s.scimTokens,
    endpoint: `${config.publicUrl}scim/v2`,
  });
  await app.register(notificationsAdminRoutes, { ...admin, prefix: '/api/admin/notifications', notifications: s.notifications });
  await app.register(passkeyPolicyRoutes, { prefix: '/api/admin/webauthn', verify, authorization, policyService: s.webauthnPolicy });

  // The portal's authenticator app (`<basePath>authenticator/api/`): no bearer token, requests signed by the device key.
  await app.register(authenticatorAppRoutes, {
    prefix: '/authenticator/api',
    service: s.authenticatorApp,
    mfa: s.mfa,
    events: s.pushEvents,
  });

  app.get('/api/docs', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
}
