import { Suspense } from 'react';
import { lazyWithTimeout } from '../../shell/lazy-with-timeout';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Route, Routes } from 'react-router';
import { Alert } from 'antd';
import { ADMIN_ROUTES } from '../../lib/main-routes';
import { usePortalRole } from '../../lib/roles';
import { RequireRole } from '../../lib/ui/RequireRole';
import { Loading } from '../../lib/ui/Loading';
import { Page } from '../../lib/ui/Page';
import { useReach } from './api/units';
import { AdminNav } from './components/AdminNav';
import { AuditPage } from './routes/AuditPage';
import { CampaignsPage } from './routes/CampaignsPage';
import { FactorPolicyPage } from './routes/FactorPolicyPage';
import { LostDevicePage } from './routes/LostDevicePage';
import { PasskeyPolicyPage } from './routes/PasskeyPolicyPage';
import { ProvisioningPage } from './routes/ProvisioningPage';
import { TokensPage } from './routes/TokensPage';
import { UnitsPage } from './routes/UnitsPage';
import { UserPage } from './routes/UserPage';
import { UserSearchPage } from './routes/UserSearchPage';
import './admin.css';

/** The reports and their chart library: a chunk of their own, loaded when a Solution Administrator opens them. */
const ReportsPage = lazyWithTimeout(() => import('./routes/ReportsPage'));

function AdminNotFound() {
  const { t } = useTranslation('admin');
  return (
    <Page title={t('not_found.title')}>
      <Alert role="note" type="info" showIcon title={t('not_found.title')} description={t('not_found.body')} />
      <p className="after-alert">
        <Link to={ADMIN_ROUTES.users}>{t('user.back_to_search')}</Link>
      </p>
    </Page>
  );
}

/** The reports: the organisation's for Solution Administrators, their units' for a helpdesk member limited to units. */
function ReportsScreen() {
  const { t } = useTranslation('admin');
  const role = usePortalRole();
  const reach = useReach();
  const page = (
    <Suspense fallback={<Loading label={t('reports.loading_page')} />}>
      <ReportsPage />
    </Suspense>
  );
  if (role === 'helpdesk' && reach.isPending) return <Loading label={t('reports.loading_page')} />;
  return role === 'helpdesk' && reach.data?.reach === 'units' ? page : <RequireRole roles={['solution_admin']}>{page}</RequireRole>;
}

/**
 * The administration area (Helpdesk and Solution Administrators), loaded only when one of them opens
 * it: its navigation and screens, under MAIN_ROUTES.admin. The main application checks the role before
 * loading it; screens for Solution Administrators only check again; the server decides every call.
 */
export default function AdminArea() {
  // The area's translations load with it (the shell shows "Loading..." meanwhile).
  useTranslation('admin');
  return (
    <>
      <AdminNav />
      <Routes>
        <Route index element={<Navigate to={ADMIN_ROUTES.users} replace />} />
        <Route path="users" element={<UserSearchPage />} />
        <Route path="users/:upn" element={<UserPage />} />
        <Route path="users/:upn/lost-device" element={<LostDevicePage />} />
        <Route
          path="tokens"
          element={
            <RequireRole roles={['solution_admin']}>
              <TokensPage />
            </RequireRole>
          }
        />
        <Route
          path="audit"
          element={
            <RequireRole roles={['solution_admin']}>
              <AuditPage />
            </RequireRole>
          }
        />
        <Route
          path="provisioning"
          element={
            <RequireRole roles={['solution_admin']}>
              <ProvisioningPage />
            </RequireRole>
          }
        />
        <Route
          path="passkeys"
          element={
            <RequireRole roles={['solution_admin']}>
              <PasskeyPolicyPage />
            </RequireRole>
          }
        />
        <Route
          path="factor-policy"
          element={
            <RequireRole roles={['solution_admin']}>
              <FactorPolicyPage />
            </RequireRole>
          }
        />
        <Route path="reports" element={<ReportsScreen />} />
        <Route
          path="units"
          element={
            <RequireRole roles={['solution_admin']}>
              <UnitsPage />
            </RequireRole>
          }
        />
        <Route
          path="campaigns"
          element={
            <RequireRole roles={['solution_admin']}>
              <CampaignsPage />
            </RequireRole>
          }
        />
        <Route path="*" element={<AdminNotFound />} />
      </Routes>
    </>
  );
}
