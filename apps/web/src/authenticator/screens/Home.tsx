import { useT } from '../i18n';
import type { StoredAccount } from '../lib/store';
import { useNow } from '../use-now';
import { NotificationsCard } from './NotificationsCard';
import { Passcode } from './Passcode';

export interface HomeProps {
  accounts: StoredAccount[];
  unauthorized: ReadonlySet<string>;
  checking: boolean;
  onCheck(): void;
  vapidPublicKey(): Promise<string | null>;
}

/** The accounts on this phone with their passcodes, and the way to look for requests by hand. */
export function Home({ accounts, unauthorized, checking, onCheck, vapidPublicKey }: HomeProps) {
  const t = useT();
  const now = useNow();
  if (accounts.length === 0) {
    return (
      <section className="card" aria-labelledby="home-title">
        <h1 id="home-title">{t('home.empty_title')}</h1>
        <p>{t('home.empty_body')}</p>
      </section>
    );
  }
  return (
    <>
      <h1>{t('home.title')}</h1>
      <section className="card" aria-labelledby="accounts-title">
        <h2 id="accounts-title">{t('home.accounts')}</h2>
        <ul className="accounts">
          {accounts.map((account) => (
            <li key={account.deviceId}>
              <p className="account-name">{account.displayName}</p>
              <p className="help">{account.upn}</p>
              {unauthorized.has(account.deviceId) && <p className="error">{t('home.removed', { upn: account.upn })}</p>}
              <Passcode account={account} now={now} />
            </li>
          ))}
        </ul>
        <p className="help">{t('home.passcode_help')}</p>
      </section>
      <section className="card" aria-labelledby="requests-title">
        <h2 id="requests-title">{t('home.no_requests')}</h2>
        <p>{t('home.waiting')}</p>
        <button type="button" className="secondary" disabled={checking} onClick={onCheck}>
          {checking ? t('home.checking') : t('home.check')}
        </button>
      </section>
      <NotificationsCard accounts={accounts} vapidPublicKey={vapidPublicKey} />
    </>
  );
}
