import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from 'antd';
import type { PortalRole } from '@mfa-portal/shared';
import { ServiceDeskContact } from '../../shell/components/ServiceDeskContact';
import { usePortalRole } from '../roles';
import { MAIN_ROUTES } from '../main-routes';
import { Page } from './Page';

/**
 * A screen for some portal roles only: anyone else (e.g. staff opening an admin address directly)
 * gets a page saying so, instead of the screen, and nothing of it is loaded. The server refuses their
 * calls anyway; this is what they see.
 */
export function RequireRole({ roles, children }: { roles: readonly PortalRole[]; children: ReactNode }) {
  const { t } = useTranslation('app');
  const role = usePortalRole();
  if (roles.includes(role)) return children;
  const onlySolutionAdmin = roles.length === 1 && roles[0] === 'solution_admin';
  return (
    <Page title={t('role_required.title')}>
      <Alert
        role="note"
        type="info"
        showIcon
        title={t('role_required.title')}
        description={onlySolutionAdmin ? t('role_required.solution_admin_body') : t('role_required.admin_body')}
      />
      {onlySolutionAdmin ? null : <ServiceDeskContact className="after-alert" />}
      <p className="after-alert">
        <Link to={MAIN_ROUTES.overview}>{t('role_required.home')}</Link>
      </p>
    </Page>
  );
}
