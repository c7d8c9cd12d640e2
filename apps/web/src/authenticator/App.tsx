import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { lazyWithTimeout } from '../shell/lazy-with-timeout';
import type { AuthenticatorInfo } from '@mfa-portal/shared';
import { api } from './lib/api';
import type { AccountStore, StoredAccount } from './lib/store';
import { useT } from './i18n';
import type { Outcome } from './outcome';
import { Home } from './screens/Home';
import { OutcomePanel } from './screens/OutcomePanel';
import { RequestScreen } from './screens/RequestScreen';
import { useRequests } from './use-requests';

// Used once per phone and account: kept out of the first download.
const ActivationScreen = lazyWithTimeout(() => import('./screens/ActivationScreen'));

export interface AppProps {
  store: AccountStore;
  /** The token of the activation link the app was opened with, if any. */
  activationToken: string | null;
}

const NO_ACCOUNTS: StoredAccount[] = [];

export function App({ store, activationToken }: AppProps) {
  const t = useT();
  const [accounts, setAccounts] = useState<StoredAccount[] | null>(null);
  const [token, setToken] = useState(activationToken);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [checking, setChecking] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const answering = useRef(new Set<string>());

  const load = useCallback(async () => setAccounts(await store.list()), [store]);
  useEffect(() => {
    void load();
  }, [load]);

  // The server's public facts, fetched once and only when needed (notifications).
  const infoPromise = useRef<Promise<AuthenticatorInfo> | null>(null);
  const info = useCallback(
    () => (infoPromise.current ??= api.info().catch((err) => ((infoPromise.current = null), Promise.reject(err)))),
    [],
  );
  const vapidPublicKey = useCallback(async () => (await info()).vapidPublicKey, [info]);

  const onClosedElsewhere = useCallback((id: string, state: string) => {
    if (answering.current.has(id)) return;
    setOutcome({ kind: state === 'timeout' ? 'expired' : 'closed_elsewhere' });
  }, []);
  const feed = useRequests(accounts ?? NO_ACCOUNTS, onClosedElsewhere);
  const { remove } = feed;

  const current = feed.requests[0];
  const signer = useMemo(() => accounts?.find((a) => a.deviceId === current?.deviceId), [accounts, current?.deviceId]);

  // Announce a new request to screen readers even before the focus reaches it.
  const lastAnnounced = useRef<string | null>(null);
  useEffect(() => {
    if (current && current.id !== lastAnnounced.current) {
      lastAnnounced.current = current.id;
      setAnnouncement(t('request.for', { account: current.account }));
    }
  }, [current, t]);

  const onOutcome = useCallback(
    (id: string, result: Outcome) => {
      setOutcome(result);
      if (result.kind !== 'offline') remove(id, result.kind !== 'failed');
    },
    [remove],
  );

  const check = async () => {
    setChecking(true);
    await feed.refresh();
    setChecking(false);
    setAnnouncement(t('home.no_requests'));
  };

  if (accounts === null) return <p className="loading">{t('app.loading')}</p>;

  if (token) {
    return (
      <main>
        <Suspense fallback={<p className="loading">{t('app.loading')}</p>}>
          <ActivationScreen
            token={token}
            store={store}
            info={info}
            onDone={() => {
              setToken(null);
              void load();
            }}
          />
        </Suspense>
      </main>
    );
  }

  return (
    <main>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {outcome && <OutcomePanel outcome={outcome} onDone={() => setOutcome(null)} />}
      {current && signer ? (
        <RequestScreen
          // Each request is a screen of its own: the number typed for one never carries to the next.
          key={current.id}
          request={current}
          signer={signer}
          moreWaiting={feed.requests.length - 1}
          onAnswering={(id) => answering.current.add(id)}
          onOutcome={onOutcome}
        />
      ) : (
        <Home
          accounts={accounts}
          unauthorized={feed.unauthorized}
          checking={checking}
          onCheck={() => void check()}
          vapidPublicKey={vapidPublicKey}
        />
      )}
    </main>
  );
}
