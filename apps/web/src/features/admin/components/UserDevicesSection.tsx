import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Device } from '@mfa-portal/shared';
import { useDeviceLabels } from '../../../lib/devices/device-labels';
import { ADMIN_ROUTES } from '../../../lib/main-routes';
import { formatDate } from '../../../lib/ui/format';
import { GatedButton } from './GatedButton';

/**
 * The user's devices on their page: each with what it is and when it was used, resynchronising a
 * hardware token and removing a device (each disabled, with `…Gate` saying why, when refused), and the
 * way into the lost-device wizard.
 */
export function UserDevicesSection({
  upn,
  devices,
  lostGate,
  deleteGate,
  resyncGate,
  verifyFirstNote,
  onRemove,
  onResync,
}: {
  upn: string;
  devices: readonly Device[];
  lostGate: string | null;
  deleteGate: string | null;
  resyncGate: string | null;
  /** Why (and where) to verify the person first, when that is what stands in the way. */
  verifyFirstNote: ReactNode;
  onRemove: (device: Device) => void;
  onResync: (device: Device) => void;
}) {
  const { t, i18n } = useTranslation(['admin', 'main']);
  const language = i18n.resolvedLanguage;
  const labels = useDeviceLabels();
  return (
    <section className="section" aria-labelledby="devices-heading">
      <div className="section__header">
        <h2 id="devices-heading">{t('admin:devices.heading')}</h2>
        {lostGate || devices.length === 0 ? null : (
          <Link className="button" to={ADMIN_ROUTES.lostDevice(upn)}>
            {t('admin:devices.lost_device')}
          </Link>
        )}
      </div>
      {devices.length > 0 ? verifyFirstNote : null}
      {devices.length === 0 ? (
        <div className="empty-state">
          <p className="empty-state__title">{t('admin:devices.empty_title')}</p>
          <p>{t('admin:devices.empty_body')}</p>
        </div>
      ) : (
        <ul className="admin-device-list">
          {devices.map((device) => (
            <li key={device.id} className="admin-device">
              <div>
                <p className="admin-device__name">{labels.label(device)}</p>
                <p className="admin-device__facts">
                  {labels.kind(device)}
                  {` · ${labels.types(device)}`}
                  {device.serial ? ` · ${device.tokenType ? `${device.tokenType} ${device.serial}` : device.serial}` : ''}
                  {device.phoneNumber ? ` · ${device.phoneNumber}` : ''}
                  {' · '}
                  {t('admin:devices.added', { date: formatDate(device.createdAt, language) })}
                  {' · '}
                  {device.lastUsedAt
                    ? t('admin:devices.last_used', { date: formatDate(device.lastUsedAt, language, true) })
                    : t('admin:devices.never_used')}
                </p>
              </div>
              <div className="device-actions">
                {device.kind === 'hardware_token' ? (
                  <GatedButton
                    reason={resyncGate}
                    onClick={() => onResync(device)}
                    label={t('admin:devices.resync')}
                    ariaLabel={t('admin:devices.resync_named', { name: labels.label(device) })}
                  />
                ) : null}
                <GatedButton
                  reason={deleteGate}
                  onClick={() => onRemove(device)}
                  label={t('admin:devices.remove')}
                  ariaLabel={t('admin:devices.remove_named', { name: labels.label(device) })}
                  danger
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
