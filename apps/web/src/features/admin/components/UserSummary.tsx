import { useTranslation } from 'react-i18next';
import type { AdminUserDetail } from '@mfa-portal/shared';
import { useDeviceLabels } from '../../../lib/devices/device-labels';
import { formatDate } from '../../../lib/ui/format';
import { GatedButton } from './GatedButton';

/**
 * Who the user is and where they stand, first on their page: sign-in name (and e-mail, when another), roles, last seen,
 * their status at the MFA service (with the lockout reason and "Unlock"), whether the account is
 * protected, and their devices in a few words. Their devices' own actions come after the verification.
 */
export function UserSummary({
  detail,
  unlockGate,
  onUnlock,
}: {
  detail: AdminUserDetail;
  unlockGate: string | null;
  onUnlock: () => void;
}) {
  const { t, i18n } = useTranslation(['admin', 'main']);
  const { label } = useDeviceLabels();
  const { user, mfa, protection } = detail;
  const devices = mfa.devices;
  return (
    <section className="user-summary" aria-labelledby="status-heading">
      <h2 id="status-heading" className="visually-hidden">
        {t('admin:user.status_heading')}
      </h2>
      <dl className="facts admin-facts user-summary__facts">
        <div>
          <dt>{t('admin:user.upn')}</dt>
          <dd>{user.upn}</dd>
        </div>
        {/* Usually the sign-in name: said once. */}
        {user.email && user.email.toLowerCase() !== user.upn.toLowerCase() ? (
          <div>
            <dt>{t('admin:user.email')}</dt>
            <dd>{user.email}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('admin:user.roles')}</dt>
          <dd>
            {user.roles === null ? t('admin:user.roles_unknown') : user.roles.length ? user.roles.join(', ') : t('admin:user.roles_none')}
          </dd>
        </div>
        <div>
          <dt>{t('admin:user.last_seen')}</dt>
          <dd>{user.lastSeenAt ? formatDate(user.lastSeenAt, i18n.resolvedLanguage, true) : t('admin:user.never_seen')}</dd>
        </div>
        <div>
          <dt>{t('admin:user.protected_label')}</dt>
          <dd>{protection.protected ? t('admin:user.protected_yes') : t('admin:user.protected_no')}</dd>
        </div>
        <div>
          <dt>{t('admin:user.status_heading')}</dt>
          <dd>
            <span className={`status-badge status-badge--${mfa.status}`}>{t(`main:status.label.${mfa.status}`)}</span>{' '}
            {t(`admin:user.status_explanation.${mfa.status}`)}
            {mfa.statusReason ? ` ${t('admin:user.status_reason', { reason: mfa.statusReason })}` : null}
          </dd>
        </div>
        <div>
          <dt>{t('admin:user.devices_label')}</dt>
          <dd>
            {devices.length === 0
              ? t('admin:user.devices_none')
              : t('admin:user.devices_summary', { count: devices.length, names: devices.map(label).join(', ') })}
          </dd>
        </div>
      </dl>
      {mfa.status === 'locked_out' ? (
        <div className="actions user-state__actions">
          <GatedButton reason={unlockGate} onClick={onUnlock} label={t('admin:unlock.open')} primary />
        </div>
      ) : null}
    </section>
  );
}
