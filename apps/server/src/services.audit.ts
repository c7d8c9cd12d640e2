import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config.js';
import type { Database } from './db/schema.js';
import { createAuditService } from './modules/audit/audit.service.js';
import type { PortalMetrics } from './modules/metrics/metrics.registry.js';
import { siemRecorder, withAuditMetrics } from './modules/metrics/metrics.recorders.js';
import type { NotificationsService } from './modules/notifications/notifications.service.js';
import { createSiemService } from './modules/siem/siem.service.js';

/**
 * The audit side of the composition root (services.ts builds everything else): the audit log, and what
 * every append also writes in the same transaction — the e-mail the event causes (the notification
 * outbox) and the event for each SIEM stream switched on (the SIEM outbox) — so that each exists if
 * and only if the change committed. Appends and chain verifications are counted when the app is metered.
 */
export function buildAuditLog(
  config: AppConfig,
  deps: {
    db: Kysely<Database>;
    notifications: Pick<NotificationsService, 'afterAppend'>;
    metrics: PortalMetrics | null;
    log?: Pick<FastifyBaseLogger, 'warn'> | undefined;
  },
) {
  const { db, notifications, metrics } = deps;
  const siem = createSiemService({ db, config: config.siem, listeners: siemRecorder(metrics), ...(deps.log ? { log: deps.log } : {}) });
  const audit = createAuditService(db, {
    afterAppend: async (trx, event) => {
      await notifications.afterAppend(trx, event);
      await siem.afterAppend(trx, event);
    },
  });
  return { audit: metrics ? withAuditMetrics(audit, metrics) : audit, siem };
}
