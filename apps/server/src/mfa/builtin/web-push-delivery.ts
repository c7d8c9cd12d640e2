import webpush from 'web-push';
import { pushSubscriptionSchema, type PushSubscriptionJson } from '@mfa-portal/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { authenticatorRepository } from './authenticator.repository.js';
import { subscriptionSecretAad } from './builtin-mapping.js';

/**
 * Web Push (RFC 8030, payload encryption RFC 8291, VAPID RFC 8292) to the portal's authenticator app,
 * through the `web-push` library: it builds the encrypted body and the signed VAPID headers; the
 * request itself is sent here, bounded in time and without following redirects.
 *
 * The VAPID key pair comes from the configuration, or is generated once and kept in the database,
 * sealed: the first instance to store one wins and every instance reads that one, so a subscription
 * made through one instance is accepted from all of them.
 *
 * A delivery never fails the push it announces (the app also fetches its requests when opened and
 * listens while open): `send` never throws; each attempt is reported to `onDelivery`. A push service
 * that says the subscription is gone (404, 410) clears it.
 */

export interface PushDeliveryResult {
  ok: boolean;
  /** Why it failed (`gone`, `rejected`, `network`, `insecure_endpoint`, …); null when delivered. */
  reason: string | null;
  /** The push service's HTTP status; null when none came back. */
  statusCode: number | null;
}

export interface WebPushDeliveryOptions {
  /** WEB_PUSH: when false nothing is sent and browsers get no VAPID key. */
  enabled: boolean;
  /** Configured keys (base64url); null: generated once and stored sealed in the database. */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  /** The VAPID `sub`: a mailto: address or an https: URL. */
  subject: string;
  /** How long the push service keeps an undelivered message: a request is worthless once it expires. */
  ttlSeconds: number;
  /** Each request to a push service is given this long (default 10 s). */
  timeoutMs?: number;
  /** Plain-http endpoints (a local push-service stand-in in tests); never in production. */
  allowHttpEndpoints?: boolean;
  onDelivery?: (result: PushDeliveryResult) => void;
}

export interface WebPushDelivery {
  /** The VAPID public key browsers subscribe with; null when Web Push is off. */
  vapidPublicKey(): Promise<string | null>;
  /** Sends `payload` (as JSON) to one subscription; `onGone` runs when the push service says it no longer exists. */
  send(subscription: PushSubscriptionJson, payload: unknown, opts?: { onGone?: () => Promise<void> }): Promise<PushDeliveryResult>;
  /** Sends `payload` to the device's current subscription, if it has one (clearing it when gone). */
  notifyDevice(deviceId: string, payload: unknown): Promise<PushDeliveryResult | null>;
}

/** The name of the stored VAPID key pair, and the associated data its seal is bound to. */
export const VAPID_SECRET_NAME = 'web_push_vapid';
const vapidAad = `portal_secret:${VAPID_SECRET_NAME}`;

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The VAPID key pair shared by every instance: read, or generated and stored unless another instance
 * stored one first (insert … on conflict do nothing, then read what is there).
 */
export async function loadOrCreateVapidKeys(db: Kysely<Database>, box: SecretBox): Promise<{ publicKey: string; privateKey: string }> {
  const repo = authenticatorRepository(db);
  const existing = await repo.findSecret(VAPID_SECRET_NAME);
  const sealed =
    existing?.value_sealed ??
    (await repo.insertSecretOnce(VAPID_SECRET_NAME, box.seal(JSON.stringify(webpush.generateVAPIDKeys()), vapidAad)));
  const keys = JSON.parse(box.open(sealed, vapidAad).toString('utf8')) as { publicKey: string; privateKey: string };
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}

export function createWebPushDelivery(db: Kysely<Database>, box: SecretBox, opts: WebPushDeliveryOptions): WebPushDelivery {
  const repo = authenticatorRepository(db);
  let keys: Promise<{ publicKey: string; privateKey: string }> | null = null;
  const vapidKeys = () => {
    if (opts.vapidKeys) return Promise.resolve(opts.vapidKeys);
    // Kept once read; a failed read is tried again next time.
    keys ??= loadOrCreateVapidKeys(db, box).catch((err: unknown) => {
      keys = null;
      throw err;
    });
    return keys;
  };

  const report = (result: PushDeliveryResult): PushDeliveryResult => {
    try {
      opts.onDelivery?.(result);
    } catch {
      // A listener's failure is not the delivery's.
    }
    return result;
  };

  async function send(subscription: PushSubscriptionJson, payload: unknown, sendOpts: { onGone?: () => Promise<void> } = {}) {
    if (!opts.enabled) return { ok: false, reason: 'disabled', statusCode: null };
    try {
      const url = new URL(subscription.endpoint);
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && opts.allowHttpEndpoints))
        return report({ ok: false, reason: 'insecure_endpoint', statusCode: null });
      const vapid = await vapidKeys();
      const details = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: subscription.keys },
        JSON.stringify(payload),
        {
          vapidDetails: { subject: opts.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          TTL: opts.ttlSeconds,
          contentEncoding: 'aes128gcm',
          urgency: 'high',
        },
      );
      const res = await fetch(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: details.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      await res.body?.cancel().catch(() => undefined);
      if (res.status >= 200 && res.status < 300) return report({ ok: true, reason: null, statusCode: res.status });
      if (res.status === 404 || res.status === 410) {
        await sendOpts.onGone?.().catch(() => undefined);
        return report({ ok: false, reason: 'gone', statusCode: res.status });
      }
      return report({ ok: false, reason: 'rejected', statusCode: res.status });
    } catch (err) {
      const name = (err as { name?: string } | null)?.name;
      return report({ ok: false, reason: name === 'TimeoutError' ? 'timeout' : 'network', statusCode: null });
    }
  }

  return {
    async vapidPublicKey() {
      return opts.enabled ? (await vapidKeys()).publicKey : null;
    },
    send,
    async notifyDevice(deviceId, payload) {
      if (!opts.enabled) return null;
      let sealed: string | null;
      try {
        sealed = (await repo.findDeviceKey(deviceId))?.push_subscription_sealed ?? null;
      } catch {
        return report({ ok: false, reason: 'store', statusCode: null });
      }
      if (!sealed) return null;
      let subscription: PushSubscriptionJson;
      try {
        subscription = pushSubscriptionSchema.parse(JSON.parse(box.open(sealed, subscriptionSecretAad(deviceId)).toString('utf8')));
      } catch {
        return report({ ok: false, reason: 'unreadable_subscription', statusCode: null });
      }
      // Cleared only if the app has not subscribed anew meanwhile.
      return send(subscription, payload, { onGone: () => repo.clearSubscriptionIf(deviceId, sealed).then(() => undefined) });
    },
  };
}
