import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Device } from '@mfa-portal/shared';
import { useFactorPolicy } from '../../../lib/devices/api/get-factor-policy';
import { useDeviceLabels } from '../../../lib/devices/device-labels';
import { useDisallowedAdvice } from '../../../lib/devices/factor-policy-texts';
import { formatDate } from '../../../lib/ui/format';

/** `notAllowed`: what to do about a device the organisation's factor policy no longer lets them use (it is kept). */
function DeviceItem({ device, actions, notAllowed }: { device: Device; actions?: ReactNode; notAllowed?: string | null }) {
  const { t, i18n } = useTranslation('main');
  const headingId = useId();
  const labels = useDeviceLabels();
  const language = i18n.resolvedLanguage;
  return (
    <li className="device">
      <article aria-labelledby={headingId}>
        <h3 id={headingId} className="device__name">
          {labels.label(device)}
          {notAllowed ? (
            <>
              {' '}
              <span className="badge badge--danger">{t('factor_policy.not_allowed_badge')}</span>
            </>
          ) : null}
        </h3>
        {notAllowed ? (
          <p className="device__policy" role="note">
            {notAllowed}
          </p>
        ) : null}
        <dl className="device__facts">
          <div>
            <dt>{t('devices.kind_label')}</dt>
            <dd>{labels.kind(device)}</dd>
          </div>
          <div>
            <dt>{t('devices.capabilities_label')}</dt>
            <dd>{labels.types(device)}</dd>
          </div>
          {device.phoneNumber ? (
            <div>
              <dt>{t('devices.phone_label')}</dt>
              <dd>{device.phoneNumber}</dd>
            </div>
          ) : null}
          {device.serial ? (
            <div>
              <dt>{t('devices.serial_label')}</dt>
              <dd>{device.tokenType ? t('devices.serial_with_type', { serial: device.serial, type: device.tokenType }) : device.serial}</dd>
            </div>
          ) : null}
          {device.authenticatorModel ? (
            <div>
              <dt>{t('devices.model_label')}</dt>
              <dd>{device.authenticatorModel}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('devices.added_label')}</dt>
            <dd>{formatDate(device.createdAt, language)}</dd>
          </div>
          <div>
            <dt>{t('devices.last_used_label')}</dt>
            <dd>{device.lastUsedAt ? formatDate(device.lastUsedAt, language, true) : t('devices.never_used')}</dd>
          </div>
        </dl>
        {actions}
      </article>
    </li>
  );
}

/** The user's devices (each with its actions), or a plain empty state when there are none. */
export function DeviceList({ devices, renderActions }: { devices: readonly Device[]; renderActions?: (device: Device) => ReactNode }) {
  const { t } = useTranslation('main');
  const notAllowed = useDisallowedAdvice(useFactorPolicy().data);
  if (devices.length === 0) {
    return (
      <div className="empty-state">
        <p className="empty-state__title">{t('devices.empty_title')}</p>
        <p>{t('devices.empty_body')}</p>
      </div>
    );
  }
  return (
    <ul className="device-list">
      {devices.map((device) => (
        <DeviceItem key={device.id} device={device} actions={renderActions?.(device)} notAllowed={notAllowed(device.id)} />
      ))}
    </ul>
  );
}
