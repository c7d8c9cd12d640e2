import type { Env } from './config-env.js';
import { parseSyslogUrl, SYSLOG_FACILITIES } from './config-env.siem.js';

/** Audit to a SIEM (AppConfig's `siem`), read from config-env.siem.ts's variables. */

export interface SyslogStreamConfig {
  host: string;
  port: number;
  /** PEM file(s) of the authorities the receiver's certificate must reach; null: Node's (and NODE_EXTRA_CA_CERTS). */
  caFile: string | null;
  /** A client certificate and key, for receivers that authenticate the sender; null: none. */
  certFile: string | null;
  keyFile: string | null;
  /** The numeric facility of the PRI (authpriv = 10). */
  facility: number;
  /** The SD-ID's private enterprise number (`mfaPortal@N`). */
  enterpriseNumber: number;
  /** HOSTNAME of each message: the portal's public host name. */
  hostname: string;
}

export interface WebhookStreamConfig {
  url: string;
  secret: string;
  caFile: string | null;
}

export interface SiemConfig {
  /** null: the stream is off (nothing is queued for it). */
  syslog: SyslogStreamConfig | null;
  webhook: WebhookStreamConfig | null;
  /** How often each instance looks for events to send. */
  pollMs: number;
  /** Back-off after a failed attempt: `retryMinMs` doubled at each failure in a row, at most `retryMaxMs`. */
  retryMinMs: number;
  retryMaxMs: number;
  /** How long delivered rows stay in the outbox (0: removed once delivered). */
  keepDeliveredHours: number;
}

export function siemConfigOf(env: Env, publicUrl: string): SiemConfig {
  const target = env.AUDIT_SYSLOG_URL ? parseSyslogUrl(env.AUDIT_SYSLOG_URL) : null;
  return {
    syslog: target
      ? {
          ...target,
          caFile: env.AUDIT_SYSLOG_CA_FILE ?? null,
          certFile: env.AUDIT_SYSLOG_CERT_FILE ?? null,
          keyFile: env.AUDIT_SYSLOG_KEY_FILE ?? null,
          facility: SYSLOG_FACILITIES[env.AUDIT_SYSLOG_FACILITY],
          enterpriseNumber: env.AUDIT_SYSLOG_ENTERPRISE_NUMBER,
          hostname: new URL(publicUrl).hostname,
        }
      : null,
    webhook:
      env.AUDIT_WEBHOOK_URL && env.AUDIT_WEBHOOK_SECRET
        ? { url: env.AUDIT_WEBHOOK_URL, secret: env.AUDIT_WEBHOOK_SECRET, caFile: env.AUDIT_WEBHOOK_CA_FILE ?? null }
        : null,
    pollMs: env.AUDIT_STREAM_POLL_MS,
    retryMinMs: env.AUDIT_STREAM_RETRY_MIN_MS,
    retryMaxMs: env.AUDIT_STREAM_RETRY_MAX_MS,
    keepDeliveredHours: env.AUDIT_STREAM_KEEP_DELIVERED_HOURS,
  };
}
