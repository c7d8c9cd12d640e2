import type { PushSubscriptionJson } from '@mfa-portal/shared';
import { fromBase64url } from './base64url';

/** How long to wait for the service worker before saying notifications could not be turned on. */
export const SERVICE_WORKER_WAIT_MS = 10_000;

export type NotificationOutcome = { subscription: PushSubscriptionJson } | { skipped: 'unsupported' | 'denied' | 'failed' };

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window && 'serviceWorker' in navigator && 'PushManager' in window;
}

/**
 * Asks for notifications and subscribes to Web Push. Call it only from a user's click: browsers
 * refuse (or quietly block) a permission prompt nobody asked for. Anything missing or refused is
 * "skipped": the app still gets requests when it is open.
 */
export async function subscribeToPush(vapidPublicKey: string | null): Promise<NotificationOutcome> {
  if (!vapidPublicKey || !notificationsSupported()) return { skipped: 'unsupported' };
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { skipped: 'denied' };
  try {
    // `ready` never settles when the service worker could not be installed (a certificate the browser
    // does not trust, a blocked script): give up after a while rather than leave the button spinning.
    const registration = await Promise.race([
      navigator.serviceWorker.ready,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), SERVICE_WORKER_WAIT_MS)),
    ]);
    if (!registration) return { skipped: 'failed' };
    const existing = await registration.pushManager.getSubscription();
    const subscription =
      existing ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64url(vapidPublicKey) }));
    return { subscription: subscription.toJSON() as PushSubscriptionJson };
  } catch {
    return { skipped: 'failed' };
  }
}

/** The subscription this phone already has, if notifications were allowed before. */
export async function currentSubscription(): Promise<PushSubscriptionJson | null> {
  if (!notificationsSupported() || Notification.permission !== 'granted') return null;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  return subscription ? (subscription.toJSON() as PushSubscriptionJson) : null;
}
