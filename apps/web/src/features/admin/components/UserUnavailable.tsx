import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from 'antd';
import { ADMIN_ROUTES, MAIN_ROUTES } from '../../../lib/main-routes';
import { AdminErrorAlert } from './AdminErrorAlert';
import { denyReasonOf } from './admin-errors';

/** Why a user's page cannot be shown: the caller's own account, a protected one, or no such user. */
export function UserUnavailable({ upn, error, onRetry }: { upn: string; error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('admin');
  const reason = denyReasonOf(error);
  if (reason === 'own_account_via_admin') {
    return (
      <>
        <Alert role="note" type="info" showIcon title={t('user.own_title')} description={t('deny.own_account_via_admin')} />
        <p className="after-alert">
          <Link to={MAIN_ROUTES.overview}>{t('user.own_link')}</Link>
        </p>
      </>
    );
  }
  if (reason) {
    return (
      <>
        <Alert role="note" type="warning" showIcon title={t('user.refused_title')} description={t(`deny.${reason}`)} />
        <p className="after-alert">
          <Link to={ADMIN_ROUTES.users}>{t('user.back_to_search')}</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <AdminErrorAlert error={error} title={t('user.failed', { upn })} onRetry={onRetry} />
      <p className="after-alert">
        <Link to={ADMIN_ROUTES.users}>{t('user.back_to_search')}</Link>
      </p>
    </>
  );
}
