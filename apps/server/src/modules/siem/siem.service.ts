import type { Kysely } from 'kysely';
import { AUDIT_STREAMS, type AuditStreamsStatus } from '@mfa-portal/shared';
import type { SiemConfig } from '../../config.js';
import type { Database, SiemStreamName } from '../../db/schema.js';
import type { AuditAppendHook } from '../audit/audit.service.js';
import { streamDelivery, type SiemListeners, type StreamDelivery, type StreamDeliveryDeps } from './siem-delivery.js';
import { siemRepository } from './siem.repository.js';
import { syslogMessage } from './syslog-message.js';
import { syslogTransport } from './syslog-transport.js';
import { webhookTransport } from './webhook.js';

/**
 * Audit to a SIEM. `afterAppend` runs inside every audit append, with its transaction, and queues the
 * event for each stream the configuration switches on (so a stream gets an event if and only if the
 * change committed); one delivery loop per stream sends the queue. A stream switched on later starts
 * with the events appended from then on; one switched off keeps what it had queued, unsent, until it
 * is switched on again.
 */

export interface SiemService {
  afterAppend: AuditAppendHook;
  /** The delivery of each stream that is switched on (the app starts and stops them). */
  deliveries: readonly StreamDelivery[];
  delivery(stream: SiemStreamName): StreamDelivery | null;
  start(): void;
  stop(): Promise<void>;
  /** Each stream's state for administrators: on or off, backlog, last delivery, last error, next attempt. */
  status(): Promise<AuditStreamsStatus>;
}

/** The longest one send may take: connecting, TLS, and the receiver taking the messages. */
const SEND_TIMEOUT_MS = 10_000;
/** Syslog sends a batch per connection; the webhook one event per request. */
const SYSLOG_BATCH = 100;

export function createSiemService(deps: {
  db: Kysely<Database>;
  config: SiemConfig;
  listeners?: SiemListeners;
  log?: StreamDeliveryDeps['log'];
  now?: () => Date;
}): SiemService {
  const { config } = deps;
  const repo = siemRepository(deps.db);
  const timings = {
    repo,
    pollMs: config.pollMs,
    retryMinMs: config.retryMinMs,
    retryMaxMs: config.retryMaxMs,
    keepDeliveredHours: config.keepDeliveredHours,
    sendTimeoutMs: SEND_TIMEOUT_MS,
    ...(deps.listeners ? { listeners: deps.listeners } : {}),
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  };
  const deliveries: StreamDelivery[] = [];
  const { syslog, webhook } = config;
  if (syslog) {
    const transport = syslogTransport(syslog, { timeoutMs: SEND_TIMEOUT_MS });
    deliveries.push(
      streamDelivery({
        ...timings,
        stream: 'syslog',
        batchSize: SYSLOG_BATCH,
        send: (events, signal) =>
          transport(
            events.map((e) => syslogMessage(e, syslog)),
            signal,
          ),
      }),
    );
  }
  if (webhook) {
    const transport = webhookTransport(webhook, { timeoutMs: SEND_TIMEOUT_MS, ...(deps.now ? { now: deps.now } : {}) });
    deliveries.push(
      streamDelivery({
        ...timings,
        stream: 'webhook',
        batchSize: 1,
        send: transport.send,
        close: transport.close,
        redact: [webhook.secret, webhook.url],
      }),
    );
  }
  const enabled = deliveries.map((d) => d.stream);
  const destinations: Record<SiemStreamName, string | null> = {
    syslog: syslog ? `${syslog.host.includes(':') ? `[${syslog.host}]` : syslog.host}:${syslog.port}` : null,
    // The origin only: a path or query may hold a key.
    webhook: webhook ? new URL(webhook.url).origin : null,
  };
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

  return {
    deliveries,
    delivery: (stream) => deliveries.find((d) => d.stream === stream) ?? null,
    async afterAppend(trx, event) {
      if (enabled.length === 0) return;
      await siemRepository(trx).enqueue(enabled, Number(event.id), new Date(event.occurredAt));
    },
    start() {
      for (const d of deliveries) d.start();
    },
    async stop() {
      await Promise.all(deliveries.map((d) => d.stop()));
    },
    async status() {
      const rows = await repo.streams();
      const streams = await Promise.all(
        AUDIT_STREAMS.map(async (stream) => {
          const row = rows.find((r) => r.stream === stream);
          const backlog = await repo.backlog(stream);
          return {
            stream,
            enabled: enabled.includes(stream),
            destination: destinations[stream],
            backlog: backlog.count,
            oldestPendingAt: iso(backlog.oldest),
            lastDeliveredAt: iso(row?.last_delivered_at ?? null),
            lastDeliveredEventId: row?.last_delivered_event_id != null ? String(row.last_delivered_event_id) : null,
            failures: row?.failures ?? 0,
            lastError: row?.last_error ?? null,
            lastErrorAt: iso(row?.last_error_at ?? null),
            nextAttemptAt: backlog.count > 0 ? iso(row?.next_attempt_at ?? null) : null,
          };
        }),
      );
      return { streams };
    },
  };
}
