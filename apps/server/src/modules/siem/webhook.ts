import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { WebhookStreamConfig } from '../../config.js';
import { storedCanonicalText, type ChainedAuditEvent } from '../audit/audit-chain.js';

/**
 * One audit event as a JSON webhook, signed with HMAC-SHA256 under AUDIT_WEBHOOK_SECRET.
 *
 * The body is `{ id, prevHash, hash, canonical, event }`: `canonical` is the event's canonical text,
 * exactly what the audit chain hashes (`sha256(prevHash + canonical) = hash`), and `event` is that
 * text parsed, for the receiver's indexing. Headers:
 * - `X-Audit-Timestamp`: seconds since 1970 when the request was signed;
 * - `X-Audit-Signature`: `sha256=` and the hex HMAC-SHA256 of `timestamp + "." + body`;
 * - `X-Audit-Event-Id`: the event's id, so that a receiver drops a repeat (delivery is at least once).
 * A 2xx answer delivers the event; anything else (a redirect too), or no answer in time, is a failure
 * and the same event is sent again after a back-off.
 */

export const WEBHOOK_SIGNATURE_HEADER = 'x-audit-signature';
export const WEBHOOK_TIMESTAMP_HEADER = 'x-audit-timestamp';
export const WEBHOOK_EVENT_ID_HEADER = 'x-audit-event-id';

export function webhookBody(event: ChainedAuditEvent): string {
  const canonical = storedCanonicalText(event);
  return JSON.stringify({ id: event.id, prevHash: event.prevHash, hash: event.hash, canonical, event: JSON.parse(canonical) as unknown });
}

/** `sha256=<hex>` of HMAC-SHA256(secret, `${timestamp}.${body}`). */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}

export interface WebhookTransport {
  send(events: readonly ChainedAuditEvent[], signal: AbortSignal): Promise<void>;
  /** Closes the connection kept open between events. */
  close(): void;
}

/** Posts the events one at a time, in order; the first failure stops the rest (they stay pending). */
export function webhookTransport(config: WebhookStreamConfig, opts: { timeoutMs: number; now?: () => Date }): WebhookTransport {
  const url = new URL(config.url);
  const client = url.protocol === 'https:' ? https : http;
  const ca = config.caFile ? fs.readFileSync(config.caFile) : undefined;
  // One connection kept open between events, as a burst of them goes out one after the other.
  const agent =
    url.protocol === 'https:'
      ? new https.Agent({ keepAlive: true, maxSockets: 1, ...(ca ? { ca } : {}) })
      : new http.Agent({ keepAlive: true, maxSockets: 1 });
  const clock = opts.now ?? (() => new Date());

  const post = (event: ChainedAuditEvent, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const body = webhookBody(event);
      const timestamp = Math.floor(clock().getTime() / 1000);
      const request = client.request(
        url,
        {
          method: 'POST',
          agent,
          signal,
          timeout: opts.timeoutMs,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'mfa-portal-audit',
            [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
            [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(config.secret, timestamp, body),
            [WEBHOOK_EVENT_ID_HEADER]: event.id,
          },
        },
        (response) => {
          // The answer's body is not needed (and not stored: it is the receiver's text).
          response.resume();
          const status = response.statusCode ?? 0;
          response.once('end', () =>
            status >= 200 && status < 300 ? resolve() : reject(new Error(`the receiver answered HTTP ${status}`)),
          );
          response.once('error', reject);
        },
      );
      request.once('timeout', () => request.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
      request.once('error', reject);
      request.end(body);
    });

  return {
    async send(events, signal) {
      for (const event of events) await post(event, signal);
    },
    close: () => agent.destroy(),
  };
}
