import type { Kysely } from 'kysely';
import type { AppConfig } from './config.js';
import type { Database } from './db/schema.js';
import { PORTAL_NAME } from './idp/views.js';
import type { IpLocator } from './lib/ip-locations.js';
import { createDbRateLimiter } from './lib/rate-limit/rate-limit-store.js';
import type { MfaProvider, PushDeliveryResult } from './mfa/index.js';
import type { ActivityReportService } from './modules/activity/activity-report.service.js';
import type { AuditService } from './modules/audit/audit.service.js';
import { createAuthenticatorAppService } from './modules/authenticator/authenticator-app.service.js';
import { createAuthenticatorService } from './modules/authenticator/authenticator.service.js';
import { createPushEvents } from './modules/authenticator/push-events.js';
import type { SelfServiceDeps } from './modules/common/self-service.js';
import type { DirectoryRepository } from './modules/directory/directory.repository.js';
import type { PortalMetrics } from './modules/metrics/metrics.registry.js';
import { createPushService, type PushServiceOptions } from './modules/push/push.service.js';

/**
 * The push side of the composition root (services.ts builds everything else): the push service with
 * what the phone shows and the per-user budget against push fatigue, the portal's own authenticator
 * app, and the hub of server-sent events that tells waiting browsers and open apps.
 */

/** The window of the per-user push budget (PUSH_LIMIT_PER_USER pushes in it, whatever their purpose). */
export const PUSH_LIMIT_WINDOW_SECONDS = 600;

type Directory = Pick<DirectoryRepository, 'find'>;

const displayNameOf = (directory: Directory) => async (upn: string) => (await directory.find(upn))?.displayName || null;

/** The seconds a push waits for its answer (PUSH_TIMEOUT_SECONDS). */
export function pushTimeoutSeconds(config: AppConfig): number {
  return config.mfa.pushTimeoutSeconds;
}

export function buildPushService(
  config: AppConfig,
  deps: {
    db: Kysely<Database>;
    mfa: MfaProvider;
    directory: Directory;
    locate: IpLocator;
    metrics: PortalMetrics | null;
    /** The factor policy: a push to sign in or step up only to a phone the person may use. */
    assertUsable?: PushServiceOptions['assertUsable'];
  },
) {
  const options: PushServiceOptions = {
    timeoutSeconds: pushTimeoutSeconds(config),
    application: PORTAL_NAME,
    locate: deps.locate,
    displayNameOf: displayNameOf(deps.directory),
    perUserLimiter: createDbRateLimiter(deps.db, {
      name: 'push',
      limit: config.mfa.pushLimitPerUser,
      intervalSeconds: PUSH_LIMIT_WINDOW_SECONDS,
    }),
    onStarted: (purpose) => deps.metrics?.pushesStarted.inc({ kind: purpose }),
    ...(deps.assertUsable ? { assertUsable: deps.assertUsable } : {}),
  };
  return createPushService(deps.db, deps.mfa, options);
}

/** The provider's Web Push deliveries (ok or failed: a failure never fails the push), counted. */
export function pushDeliveryRecorder(metrics: () => PortalMetrics | null) {
  return {
    onPushDelivery: (delivery: PushDeliveryResult) => metrics()?.webPushDeliveries.inc({ outcome: delivery.ok ? 'ok' : 'failed' }),
  };
}

export function buildAuthenticatorServices(
  config: AppConfig,
  deps: {
    self: SelfServiceDeps;
    audit: AuditService;
    directory: Directory;
    activityReport: ActivityReportService;
    metrics: PortalMetrics | null;
    onLockout: (upn: string) => Promise<unknown>;
  },
) {
  const { mfa, pushes, factorPolicy } = deps.self;
  const { metrics } = deps;
  const pushEvents = createPushEvents({
    authenticatorApp: mfa.capabilities.authenticatorApp ? (mfa.authenticatorApp ?? null) : null,
    pushes,
    ...(metrics ? { onOpenStreams: (kind: 'app' | 'browser', open: number) => metrics.sseStreamsOpen.set({ kind }, open) } : {}),
  });
  return {
    /** Server-sent events of pushes (a listener of the change feed, which app.ts starts). */
    pushEvents,
    authenticator: createAuthenticatorService({ ...deps.self, publicUrl: config.publicUrl }),
    authenticatorApp: createAuthenticatorAppService({
      mfa,
      audit: deps.audit,
      activityReport: deps.activityReport,
      portalName: PORTAL_NAME,
      totpIssuer: config.mfa.totpIssuer,
      pushTimeoutSeconds: pushTimeoutSeconds(config),
      displayNameOf: displayNameOf(deps.directory),
      onLockout: deps.onLockout,
      ...(factorPolicy ? { mayEnrol: (upn: string) => factorPolicy.assertMayEnrol(upn, 'portal_authenticator') } : {}),
      changed: (users) => pushEvents.changed(users),
      ...(metrics ? { onAnswer: (outcome) => metrics.pushAnswers.inc({ outcome }) } : {}),
    }),
  };
}
