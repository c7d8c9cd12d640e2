import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from 'antd';
import type { Device, MfaStatus } from '@mfa-portal/shared';
import { hasMfaData, useMfaData, useUser } from '../../../shell/contexts';
import { ServiceDeskContact } from '../../../shell/components/ServiceDeskContact';
import { AddKindLinks, RecommendationSentence } from '../../../lib/devices/AddDeviceAdvice';
import { useAddableKinds, type AddableKinds } from '../../../lib/devices/device-kinds';
import { MAIN_ROUTES } from '../../../lib/main-routes';
import { useCanChangeOwnMfa } from '../../../lib/self-service';
import { ProtectedAccountNote } from '../../../lib/ui/ProtectedAccountNote';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { formatDate } from '../../../lib/ui/format';
import { Page } from '../../../lib/ui/Page';
import { useDevices } from '../../../lib/devices/api/get-devices';
import { DefaultMethodSection } from '../components/DefaultMethodSection';
import { DeviceList } from '../components/DeviceList';
import '../overview.css';

/** What to add, from the one place that words it: the recommendation sentence and a link to each kind, in order. */
function AddAdvice({ advice }: { advice: AddableKinds }) {
  return (
    <>
      <RecommendationSentence advice={advice} /> <AddKindLinks advice={advice} />
    </>
  );
}

/**
 * Whether the user could still sign in after losing a device, and what to add as a backup if not (the
 * kinds the organisation's MFA service takes, asked only then). A first device is no backup: a person
 * with none is told so in the status above.
 */
function Readiness({ devices, canChange }: { devices: readonly Device[]; canChange: boolean }) {
  const { t } = useTranslation('main');
  const count = devices.length;
  const advice = useAddableKinds({ enabled: count === 1 && canChange });
  if (count === 1) {
    return (
      <Alert
        role="note"
        type="warning"
        showIcon
        title={t('readiness.one_title')}
        description={
          <>
            {t('readiness.one_body', { name: devices[0]?.name ?? '' })} {canChange ? <AddAdvice advice={advice} /> : null}
          </>
        }
      />
    );
  }
  return <Alert role="note" type="success" showIcon title={t('readiness.many_title', { count })} description={t('readiness.many_body')} />;
}

/**
 * The multi-factor status. "Active" at the provider says nothing about a person with no device, whom a
 * password alone signs in: they are told they are not protected yet, and what to add first.
 */
function Status({ status, devices, canChange }: { status: MfaStatus; devices: readonly Device[] | undefined; canChange: boolean }) {
  const { t } = useTranslation('main');
  const unprotected = status === 'active' && devices?.length === 0;
  const advice = useAddableKinds({ enabled: unprotected && canChange });
  const shown = unprotected ? 'unprotected' : status;
  return (
    <>
      <p>
        <span className={`status-badge status-badge--${shown}`}>{t(`status.label.${shown}`)}</span> {t(`status.explanation.${shown}`)}
      </p>
      {unprotected && canChange ? (
        <p>
          <AddAdvice advice={advice} />
        </p>
      ) : null}
    </>
  );
}

/**
 * The home screen: greeting, MFA status, backup readiness, devices (with their actions) and bypass codes.
 * What can be done with each device comes from `renderDeviceActions` (app/ composes the devices feature in).
 */
export function OverviewPage({
  unknownAddress = false,
  renderDeviceActions,
}: {
  unknownAddress?: boolean;
  renderDeviceActions?: (device: Device, deviceCount: number) => ReactNode;
}) {
  const { t, i18n } = useTranslation('main');
  const { user } = useUser();
  const { mfaData } = useMfaData();
  const devicesQuery = useDevices();
  const canChange = useCanChangeOwnMfa();
  const name = user ? user.firstName || user.displayName : '';
  const devices = devicesQuery.data ?? [];
  return (
    <Page title={t('greeting', { name })}>
      {unknownAddress ? <Alert role="note" type="info" showIcon title={t('not_found.title')} description={t('not_found.body')} /> : null}
      {hasMfaData(mfaData) ? (
        <section className="section" aria-labelledby="status-heading">
          <h2 id="status-heading">{t('status.heading')}</h2>
          <Status status={mfaData.status} devices={devicesQuery.data} canChange={canChange} />
        </section>
      ) : null}
      {devices.length > 0 ? (
        <section className="section" aria-labelledby="default-method-heading">
          <h2 id="default-method-heading">{t('default_method.heading')}</h2>
          <DefaultMethodSection devices={devices} />
        </section>
      ) : null}
      {devices.length > 0 ? (
        <section className="section" aria-labelledby="readiness-heading">
          <h2 id="readiness-heading">{t('readiness.heading')}</h2>
          <Readiness devices={devices} canChange={canChange} />
        </section>
      ) : null}
      <section className="section" aria-labelledby="devices-heading">
        <div className="section__header">
          <h2 id="devices-heading">{t('devices.heading')}</h2>
          {canChange ? (
            <span className="inline-links">
              {devices.length > 0 ? <Link to={MAIN_ROUTES.lostDevice}>{t('devices:lost.link')}</Link> : null}
              <Link className="button button--primary" to={MAIN_ROUTES.addDevice}>
                {t('devices.add')}
              </Link>
            </span>
          ) : null}
        </div>
        {canChange ? null : <ProtectedAccountNote />}
        {devicesQuery.isError ? (
          <ErrorAlert
            error={devicesQuery.error}
            title={t('devices.refresh_failed')}
            onRetry={() => void devicesQuery.refetch()}
            className="before-list"
          />
        ) : null}
        {devicesQuery.data ? (
          <DeviceList devices={devices} renderActions={renderDeviceActions && ((device) => renderDeviceActions(device, devices.length))} />
        ) : null}
      </section>
      {hasMfaData(mfaData) ? (
        <section className="section" aria-labelledby="bypass-heading">
          <div className="section__header">
            <h2 id="bypass-heading">{t('bypass.heading')}</h2>
            <Link className="button" to={MAIN_ROUTES.bypassCodes}>
              {t('bypass.manage')}
            </Link>
          </div>
          <p>{t('bypass.summary', { count: mfaData.bypassCodes.active })}</p>
          {mfaData.bypassCodes.nextExpiresAt ? (
            <p>{t('bypass.next_expiry', { date: formatDate(mfaData.bypassCodes.nextExpiresAt, i18n.resolvedLanguage, true) })}</p>
          ) : null}
          <p className="form-note">{t('bypass.explanation')}</p>
        </section>
      ) : null}
      <ServiceDeskContact lead="need_help" className="section" />
    </Page>
  );
}
