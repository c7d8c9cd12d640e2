import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import type { Device } from '@mfa-portal/shared';
import { lazyWithTimeout } from '../shell/lazy-with-timeout';
import { ADMIN_ROLES } from '../lib/roles';
import { MAIN_ROUTES } from '../lib/main-routes';
import { Loading } from '../lib/ui/Loading';
import { RequireRole } from '../lib/ui/RequireRole';
import { RequireSelfService } from '../lib/ui/RequireSelfService';
import { ActivityPage } from '../features/activity';
import { loadAdminArea } from '../features/admin';
import { BypassCodesPage } from '../features/bypass-codes';
import {
  AddAuthenticatorPage,
  AddDevicePage,
  AddPasskeyPage,
  AddPortalAuthenticatorPage,
  AddTokenPage,
  DeviceActions,
  loadAddPhonePage,
  LostDevicePage,
} from '../features/devices';
import { HelpPage } from '../features/help';
import { OverviewPage } from '../features/overview';

const AddPhonePage = lazyWithTimeout(loadAddPhonePage);
/** Administrators only: loaded once one of them opens the area (staff never download it). */
const AdminArea = lazyWithTimeout(loadAdminArea);

/** The overview lists the user's devices; the devices feature supplies what can be done with each one. */
const deviceActions = (device: Device, deviceCount: number) => <DeviceActions device={device} deviceCount={deviceCount} />;

/** Every screen of the main application, by address (MAIN_ROUTES); features never route to each other's components. */
export function AppRouter() {
  const { t } = useTranslation('app');
  return (
    <Routes>
      <Route index element={<OverviewPage renderDeviceActions={deviceActions} />} />
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
        path={MAIN_ROUTES.addPasskey}
        element={
          <RequireSelfService>
            <AddPasskeyPage />
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
        path={MAIN_ROUTES.addPortalAuthenticator}
        element={
          <RequireSelfService>
            <AddPortalAuthenticatorPage />
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
      {/* Any other address: the overview (the home screen answers "/" and every unknown path), saying the page does not exist. */}
      <Route path="*" element={<OverviewPage unknownAddress renderDeviceActions={deviceActions} />} />
    </Routes>
  );
}
