import { z } from 'zod';

/**
 * Audit to a SIEM, as Solution Administrators see it on the reports page: for each external stream
 * (syslog over TLS, a signed webhook), whether it is switched on, what waits, and how delivery goes.
 * Never a secret: the destination is a host and port (syslog) or an origin (webhook), no path or key.
 */

export const AUDIT_STREAMS = ['syslog', 'webhook'] as const;
export type AuditStreamName = (typeof AUDIT_STREAMS)[number];

export const auditStreamStateSchema = z.object({
  stream: z.enum(AUDIT_STREAMS),
  /** Switched on by the configuration (events are queued for it). */
  enabled: z.boolean(),
  /** `host:port` of the syslog receiver, or the webhook's origin; null while off. */
  destination: z.string().nullable(),
  /** Events waiting to be delivered, and since when the oldest waits. */
  backlog: z.number().int().nonnegative(),
  oldestPendingAt: z.string().nullable(),
  lastDeliveredAt: z.string().nullable(),
  /** The audit event id delivered last (the chain's order). */
  lastDeliveredEventId: z.string().nullable(),
  /** Failed attempts in a row (0: the last attempt succeeded, or none yet). */
  failures: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  /** Not before this time (back-off after a failure); null: as soon as there is something to send. */
  nextAttemptAt: z.string().nullable(),
});
export type AuditStreamState = z.infer<typeof auditStreamStateSchema>;

export const auditStreamsStatusSchema = z.object({ streams: z.array(auditStreamStateSchema) });
export type AuditStreamsStatus = z.infer<typeof auditStreamsStatusSchema>;
