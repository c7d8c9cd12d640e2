import { useState } from 'react';
import { api } from '../lib/api';
import type { StoredAccount } from '../lib/store';
import { notificationsSupported, subscribeToPush } from '../lib/web-push';
import { useT } from '../i18n';

type State = 'ask' | 'on' | 'denied' | 'unsupported' | 'failed';

function initialState(): State {
  if (!notificationsSupported()) return 'unsupported';
  if (Notification.permission === 'granted') return 'on';
  if (Notification.permission === 'denied') return 'denied';
  return 'ask';
}

/**
 * Offers notifications once accounts exist. The permission prompt comes only from the button (a
 * user gesture); the subscription then goes to every account on the phone.
 */
export function NotificationsCard({
  accounts,
  vapidPublicKey,
}: {
  accounts: StoredAccount[];
  vapidPublicKey: () => Promise<string | null>;
}) {
  const t = useT();
  const [state, setState] = useState<State>(initialState);
  const [busy, setBusy] = useState(false);

  const allow = async () => {
    setBusy(true);
    const outcome = await subscribeToPush(await vapidPublicKey().catch(() => null));
    if ('subscription' in outcome) {
      const sent = await Promise.allSettled(accounts.map((a) => api.pushSubscription(a, outcome.subscription)));
      setState(sent.every((s) => s.status === 'fulfilled') ? 'on' : 'failed');
    } else setState(outcome.skipped);
    setBusy(false);
  };

  return (
    <section className="card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">{t('notifications.title')}</h2>
      {state === 'ask' ? (
        <>
          <p>{t('notifications.explain')}</p>
          <button type="button" className="secondary" disabled={busy} onClick={() => void allow()}>
            {t('notifications.allow')}
          </button>
        </>
      ) : (
        <p role="status">{t(`notifications.${state}`)}</p>
      )}
    </section>
  );
}
