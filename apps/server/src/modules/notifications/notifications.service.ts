import type { Kysely } from 'kysely';
import type { NotificationOutboxStatus, ServiceDeskContact } from '@mfa-portal/shared';
import type { NotificationsConfig } from '../../config.js';
import type { Database, NotificationState } from '../../db/schema.js';
import type { AuditAppendHook } from '../audit/audit.service.js';
import { planNotification, type NotificationKind, type NotificationParams } from './notification-kinds.js';
import { messageRenderer, loadNotificationStrings } from './notification-messages.js';
import {
  notificationSender,
  smtpTransport,
  type Backoff,
  type NotificationSender,
  type Recipient,
  type SenderDeps,
} from './notification-sender.js';
import { notificationsRepository } from './notifications.repository.js';

/**
 * Security notifications. `afterAppend` runs inside every audit append with the same
 * transaction and queues the message an event causes (so a message exists if and only if the change
 * committed); the sender delivers the queue. With SMTP_URL unset nothing is queued or sent.
 */
export interface NotificationsService {
  enabled: boolean;
  afterAppend: AuditAppendHook;
  /** null when SMTP_URL is unset. */
  sender: NotificationSender | null;
  /**
   * Queues a message to `targetUpn` that no audit event causes (an enrolment campaign's), on the
   * caller's transaction when there is one, so it exists if and only if the caller's change commits.
   * False (nothing queued) when SMTP_URL is unset.
   */
  enqueue(message: { kind: NotificationKind; targetUpn: string; params: NotificationParams; at: Date }): Promise<boolean>;
  /** What administrators see of the outbox: counts by state and the latest rows (no message text). */
  status(query: { limit: number; state?: NotificationState }): Promise<NotificationOutboxStatus>;
}

export function createNotificationsService(deps: {
  db: Kysely<Database>;
  config: NotificationsConfig;
  portalUrl: string;
  localesDir: string;
  recipientOf: (upn: string) => Promise<Recipient | null>;
  log?: SenderDeps['log'];
  backoff?: Backoff;
  /** How staff reach the service desk, named in the messages that send them there. */
  serviceDesk?: ServiceDeskContact | null;
  /** The sender's clock (tests move it); the real time when absent. */
  now?: (() => Date) | undefined;
}): NotificationsService {
  const { config } = deps;
  const enabled = config.smtpUrl !== null;
  const repo = notificationsRepository(deps.db);
  const sender =
    config.smtpUrl === null
      ? null
      : notificationSender({
          repo,
          transport: smtpTransport(config.smtpUrl),
          renderer: messageRenderer(loadNotificationStrings(deps.localesDir), deps.portalUrl, { serviceDesk: deps.serviceDesk ?? null }),
          from: config.mailFrom,
          recipientOf: deps.recipientOf,
          pollMs: config.pollSeconds * 1000,
          redact: [config.smtpUrl],
          ...(deps.log ? { log: deps.log } : {}),
          ...(deps.backoff ? { backoff: deps.backoff } : {}),
          ...(deps.now ? { now: deps.now } : {}),
        });

  return {
    enabled,
    sender,
    async afterAppend(trx, event) {
      if (!enabled) return;
      const plan = planNotification(event);
      if (!plan) return;
      if (plan.toSecurityContact && !config.securityContact) return;
      await notificationsRepository(trx).enqueue({
        auditEventId: Number(event.id),
        kind: plan.kind,
        targetUpn: plan.targetUpn,
        recipient: plan.toSecurityContact ? config.securityContact : null,
        params: { ...plan.params },
        at: new Date(event.occurredAt),
      });
    },
    async enqueue(message) {
      if (!enabled) return false;
      await repo.enqueue({
        auditEventId: null,
        kind: message.kind,
        targetUpn: message.targetUpn,
        recipient: null,
        params: { ...message.params },
        at: message.at,
      });
      return true;
    },
    async status(query) {
      const [counts, rows] = await Promise.all([repo.countsByState(), repo.recent(query.limit, query.state)]);
      return {
        enabled,
        counts,
        messages: rows.map((r) => ({
          id: String(r.id),
          kind: r.kind,
          targetUpn: r.target_upn,
          toSecurityContact: r.recipient !== null,
          state: r.state,
          attempts: r.attempts,
          createdAt: r.created_at.toISOString(),
          nextAttemptAt: r.state === 'pending' ? r.next_attempt_at.toISOString() : null,
          sentAt: r.sent_at ? r.sent_at.toISOString() : null,
          lastError: r.last_error,
        })),
      };
    },
  };
}
