import { useTranslation } from 'react-i18next';
import type { AdminUserDetail } from '@mfa-portal/shared';
import { formatDate } from '../../../lib/ui/format';

/** Who the user is, under the heading of their page: sign-in name, e-mail, roles, last seen. */
export function UserFacts({ detail }: { detail: AdminUserDetail }) {
  const { t, i18n } = useTranslation('admin');
  const { user } = detail;
  return (
    <dl className="facts admin-facts">
      <div>
        <dt>{t('user.upn')}</dt>
        <dd>{user.upn}</dd>
      </div>
      <div>
        <dt>{t('user.email')}</dt>
        <dd>{user.email || '–'}</dd>
      </div>
      <div>
        <dt>{t('user.roles')}</dt>
        <dd>{user.roles === null ? t('user.roles_unknown') : user.roles.length ? user.roles.join(', ') : t('user.roles_none')}</dd>
      </div>
      <div>
        <dt>{t('user.last_seen')}</dt>
        <dd>{user.lastSeenAt ? formatDate(user.lastSeenAt, i18n.resolvedLanguage, true) : t('user.never_seen')}</dd>
      </div>
    </dl>
  );
}
