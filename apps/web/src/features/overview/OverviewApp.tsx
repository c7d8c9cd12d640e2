import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazyWithTimeout } from '../../shell/lazy-with-timeout';
import { AntdProvider } from '../../lib/antd/AntdProvider';
import { createQueryClient } from '../../lib/api/query-client';
import { MAIN_NAMESPACES } from '../../lib/i18n/namespaces';
import { AppLayout } from '../../lib/layout/AppLayout';
import { useProfile } from '../../lib/profile/get-profile';
import { ADMIN_ROLES } from '../../lib/roles';
import { MAIN_ROUTES } from '../../lib/routes';
import { StepUpProvider } from '../../lib/step-up/step-up';
import { FlashProvider } from '../../lib/ui/flash';
import { Loading } from '../../lib/ui/Loading';
import { RequireRole } from '../../lib/ui/RequireRole';
import { RequireSelfService } from '../../lib/ui/RequireSelfService';
import { ActivityPage } from '../activity';
import { loadAdminArea } from '../admin';
import { BypassCodesPage } from '../bypass-codes';
import { AddAuthenticatorPage, AddDevicePage, AddTokenPage, loadAddPhonePage } from '../devices';
import { HelpPage } from '../help';
import { LostDevicePage } from './routes/LostDevicePage';
import { OverviewPage } from './routes/OverviewPage';
import './overview.css';

const AddPhonePage = lazyWithTimeout(loadAddPhonePage);
/** Administrators only: loaded once one of them opens the area (staff never download it). */
const AdminArea = lazyWithTimeout(loadAdminArea);

/** Keeps MfaDataContext in step with the server after every change (see useProfile). */
function ProfileSync() {
  useProfile();
  return null;
}

function MainRoutes() {
  const { t } = useTranslation('app');
  return (
    <Routes>
      <Route index element={<OverviewPage />} />
      <Route
        path={MAIN_ROUTES.addDevice}
        element={
          <RequireSelfService>
            <AddDevicePage />
          </RequireSelfService>
        }
      />
      <Route
        path={MAIN_ROUTES.addAuthenticator}
        element={
          <RequireSelfService>
            <AddAuthenticatorPage />
          </RequireSelfService>
        }
      />
      <Route
        path={MAIN_ROUTES.addToken}
        element={
          <RequireSelfService>
            <AddTokenPage />
          </RequireSelfService>
        }
      />
      <Route
        path={MAIN_ROUTES.addPhone}
        element={
          <RequireSelfService>
            <Suspense fallback={<Loading label={t('loading_page')} />}>
              <AddPhonePage />
            </Suspense>
          </RequireSelfService>
        }
      />
      <Route
        path={MAIN_ROUTES.lostDevice}
        element={
          <RequireSelfService>
            <LostDevicePage />
          </RequireSelfService>
        }
      />
      <Route path={MAIN_ROUTES.bypassCodes} element={<BypassCodesPage />} />
      <Route path={MAIN_ROUTES.activity} element={<ActivityPage />} />
      <Route path={MAIN_ROUTES.help} element={<HelpPage />} />
      <Route
        path={`${MAIN_ROUTES.admin}/*`}
        element={
          <RequireRole roles={ADMIN_ROLES}>
            <Suspense fallback={<Loading label={t('loading_page')} />}>
              <AdminArea />
            </Suspense>
          </RequireRole>
        }
      />
      {/* Any other address: the overview (the spec's "/ and any other path"), saying the page does not exist. */}
      <Route path="*" element={<OverviewPage unknownAddress />} />
    </Routes>
  );
}

/**
 * The main application, loaded lazily by the shell once the user and their profile are known. This
 * module is its composition root: providers (TanStack Query, Ant Design, success banners, step-up),
 * the layout and the routes of every feature. It is the one place that imports across features.
 */
export default function OverviewApp() {
  // All namespaces at once (Suspense shows the shell's "Loading..." meanwhile).
  useTranslation([...MAIN_NAMESPACES]);
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AntdProvider>
        <FlashProvider>
          <StepUpProvider>
            <ProfileSync />
            <AppLayout>
              <MainRoutes />
            </AppLayout>
          </StepUpProvider>
        </FlashProvider>
      </AntdProvider>
    </QueryClientProvider>
  );
}
