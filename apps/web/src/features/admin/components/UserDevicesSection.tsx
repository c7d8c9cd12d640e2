import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { Device } from '@mfa-portal/shared';
import { useDeviceLabels } from '../../../lib/devices/device-labels';
import { formatDate } from '../../../lib/ui/format';
import { InPageLink } from '../../../lib/ui/InPageLink';
import { GatedButton } from './GatedButton';

/**
 * What the helpdesk does for the caller, after "Verify the caller": the lost-device wizard beside the
 * heading, the call's actions (`toolbar`: bypass codes, enrolment), what they just produced (`results`), and the user's
 * devices, each with its own actions (resynchronising a hardware token, removing it), then the codes
 * and passes in force (`children`). Until a verification is in force (`locked`), the actions that need
 * one stay disabled, and one sentence says so with a link to the verification; they unlock in place.
 */
export function UserDevicesSection({
  devices,
  locked,
  deleteGate,
  resyncGate,
  headingRef,
  headerAction,
  toolbar,
  results,
  onRemove,
  onResync,
  children,
}: {
  devices: readonly Device[];
  /** True while the caller must verify this person before the guarded actions. */
  locked: boolean;
  deleteGate: string | null;
  resyncGate: string | null;
  /** The heading, focused when a verification unlocks the actions. */
  headingRef?: Ref<HTMLHeadingElement>;
  /** Beside the heading: the way into the lost-device wizard. */
  headerAction?: ReactNode;
  toolbar: ReactNode;
  results?: ReactNode;
  onRemove: (device: Device) => void;
  onResync: (device: Device) => void;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation(['admin', 'main']);
  const language = i18n.resolvedLanguage;
  const labels = useDeviceLabels();
  return (
    <section className="section call-actions" aria-labelledby="devices-heading">
      <div className="section__header">
        <h2 id="devices-heading" tabIndex={-1} ref={headingRef}>
          {t('admin:devices.heading')}
        </h2>
        {headerAction}
      </div>
      {locked ? (
        <p className="lock-note">
          <InPageLink targetId="verify-heading">{t('admin:lock.link')}</InPageLink> {t('admin:lock.why')}
        </p>
      ) : null}
      <div className="actions call-actions__toolbar">{toolbar}</div>
      {results}
      {devices.length === 0 ? (
        <p className="call-actions__empty">{t('admin:devices.empty_body')}</p>
      ) : (
        <ul className="admin-device-list" aria-label={t('admin:devices.list_label')}>
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
      {children}
    </section>
  );
}
