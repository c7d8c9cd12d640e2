import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from 'antd';
import type { Device } from '@mfa-portal/shared';
import { hasMfaData, useMfaData, useUser } from '../../../shell/contexts';
import { useCapabilities } from '../../../lib/capabilities/get-capabilities';
import { MAIN_ROUTES } from '../../../lib/main-routes';
import { useCanChangeOwnMfa } from '../../../lib/self-service';
import { ProtectedAccountNote } from '../../../lib/ui/ProtectedAccountNote';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { formatDate } from '../../../lib/ui/format';
import { Page } from '../../../lib/ui/Page';
import { useDevices } from '../../../lib/devices/api/get-devices';
import { DeviceList } from '../components/DeviceList';
import '../overview.css';

/**
 * Whether the user could still sign in after losing one device, and what to add if not: the kinds the
 * organisation's MFA service takes (asked only then), e.g. no authenticator app on Duo but a phone.
 */
function Readiness({ devices }: { devices: readonly Device[] }) {
  const { t } = useTranslation('main');
  const count = devices.length;
  const capabilities = useCapabilities({ enabled: count <= 1 }).data;
  const totp = capabilities?.totp ?? false;
  const links = (
    <span className="inline-links">
      {totp ? <Link to={MAIN_ROUTES.addAuthenticator}>{t('readiness.add_authenticator')}</Link> : null}
      {capabilities?.phones && !totp ? <Link to={MAIN_ROUTES.addPhone}>{t('readiness.add_phone')}</Link> : null}
      {capabilities?.hardwareTokens ? <Link to={MAIN_ROUTES.addToken}>{t('readiness.add_token')}</Link> : null}
    </span>
  );
  // Until the service's capabilities are known, the advice names no kind of device.
  const variant = !capabilities ? '_any' : totp ? '' : '_no_authenticator';
  if (count === 0) {
    return (
      <Alert
        role="note"
        type="warning"
        showIcon
        title={t('readiness.none_title')}
        description={
          <>
            {t(`readiness.none_body${variant}`)} {links}
          </>
        }
      />
    );
  }
  if (count === 1) {
    return (
      <Alert
        role="note"
        type="warning"
        showIcon
        title={t('readiness.one_title')}
        description={
          <>
            {t(`readiness.one_body${variant}`, { name: devices[0]?.name ?? '' })} {links}
          </>
        }
      />
    );
  }
  return <Alert role="note" type="success" showIcon title={t('readiness.many_title', { count })} description={t('readiness.many_body')} />;
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
          <p>
            <span className={`status-badge status-badge--${mfaData.status}`}>{t(`status.label.${mfaData.status}`)}</span>{' '}
            {t(`status.explanation.${mfaData.status}`)}
          </p>
        </section>
      ) : null}
      {devicesQuery.data ? (
        <section className="section" aria-labelledby="readiness-heading">
          <h2 id="readiness-heading">{t('readiness.heading')}</h2>
          <Readiness devices={devices} />
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
    </Page>
  );
}
