import { useTranslation } from 'react-i18next';
import { hasMfaData, useMfaData, useUser } from '../../shell/contexts';
import { PageLayout } from '../../shell/components/PageLayout';
import { SignOutButton } from '../../shell/components/SignOutButton';
import { DeviceList } from './components/DeviceList';
import './overview.css';

/**
 * The main application, for now: who is signed in, their multi-factor status, their devices and a
 * summary of their bypass codes. Loaded lazily by the shell once the profile is known.
 */
export default function OverviewApp() {
  const { t } = useTranslation('main');
  const { user } = useUser();
  const { mfaData } = useMfaData();
  const name = user ? user.firstName || user.displayName : '';
  const header = (
    <>
      {user ? <span className="signed-in-as">{t('header.signed_in_as', { name: user.displayName })}</span> : null}
      <SignOutButton />
    </>
  );
  return (
    <PageLayout title={t('greeting', { name })} headerActions={header}>
      {hasMfaData(mfaData) ? (
        <>
          <section className="section" aria-labelledby="status-heading">
            <h2 id="status-heading">{t('status.heading')}</h2>
            <p>
              <span className={`status-badge status-badge--${mfaData.status}`}>{t(`status.label.${mfaData.status}`)}</span>{' '}
              {t(`status.explanation.${mfaData.status}`)}
            </p>
          </section>
          <section className="section" aria-labelledby="devices-heading">
            <h2 id="devices-heading">{t('devices.heading')}</h2>
            <DeviceList devices={mfaData.devices} />
          </section>
          <section className="section" aria-labelledby="bypass-heading">
            <h2 id="bypass-heading">{t('bypass.heading')}</h2>
            <p>{t('bypass.summary', { count: mfaData.bypassCodes.active })}</p>
          </section>
        </>
      ) : null}
    </PageLayout>
  );
}
