import { StrictMode, Suspense, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import type { IPublicClientApplication } from '@azure/msal-browser';
import { MsalProvider } from '@azure/msal-react';
import { AppRoutes } from '../shell/AppRoutes';
import type { AuthShellProps } from '../shell/AuthShell';
import { LoadingFallback } from '../shell/components/Spinner';
import { lazyWithTimeout } from '../shell/lazy-with-timeout';
import { SettingsContext } from '../shell/contexts';
import type { Settings } from '../shell/settings';
import { settings as defaultSettings } from './fixtures';
import { createTestI18n } from './i18n';

/** The main application as main.tsx hands it to the shell: lazily loaded (test/preload-main-app.ts warms it up). */
export const MainApp = lazyWithTimeout(() => import('../app'));

/** Shows the router's current location so tests can assert navigation. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}${location.hash}`}</div>;
}

/**
 * Renders the application's routes as main.tsx does (StrictMode, translations, router, MSAL, settings),
 * with a MemoryRouter at `path` instead of the browser's address bar.
 */
export async function renderApp(options: {
  path?: string;
  instance?: IPublicClientApplication;
  settings?: Settings;
  shellProps?: Omit<AuthShellProps, 'mainApp'>;
  children?: ReactNode;
}) {
  const i18n = await createTestI18n();
  const routes = (
    <>
      <AppRoutes mainApp={MainApp} {...options.shellProps} />
      <LocationProbe />
    </>
  );
  return render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={<LoadingFallback />}>
          <MemoryRouter initialEntries={[options.path ?? '/']}>
            <SettingsContext.Provider value={options.settings ?? defaultSettings}>
              {options.instance ? <MsalProvider instance={options.instance}>{routes}</MsalProvider> : routes}
            </SettingsContext.Provider>
          </MemoryRouter>
        </Suspense>
      </I18nextProvider>
    </StrictMode>,
  );
}
