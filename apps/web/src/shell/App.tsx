import { StrictMode, Suspense, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { MsalProvider } from '@azure/msal-react';
import { AppRoutes } from './AppRoutes';
import { routerBasename } from './base-path';
import { LoadingFallback } from './components/Spinner';
import { SettingsContext } from './contexts';
import { ConfigurationErrorPage } from './pages/ConfigurationErrorPage';
import { ServerErrorPage } from './pages/ServerErrorPage';
import type { StartupResult } from './startup';

/** Translations (Suspense until loaded) and the router under the base path. */
function Frame({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={<LoadingFallback />}>
          <BrowserRouter basename={routerBasename()}>{children}</BrowserRouter>
        </Suspense>
      </I18nextProvider>
    </StrictMode>
  );
}

/**
 * The whole application once start-up has finished, whatever its outcome. `mainApp` is the lazily
 * loaded main application (app/), which the sign-in shell shows once the user is known.
 */
export function App({ i18n, startup, mainApp }: { i18n: I18n; startup: StartupResult; mainApp: ComponentType }) {
  switch (startup.kind) {
    case 'settings_unavailable':
      return (
        <Frame i18n={i18n}>
          <ServerErrorPage showHomeLink={false} />
        </Frame>
      );
    case 'configuration_error':
      return (
        <Frame i18n={i18n}>
          <ConfigurationErrorPage problem={startup.problem} />
        </Frame>
      );
    case 'ready':
      return (
        <Frame i18n={i18n}>
          <MsalProvider instance={startup.instance}>
            <SettingsContext.Provider value={startup.settings}>
              <AppRoutes mainApp={mainApp} initialProblem={startup.redirectProblem} />
            </SettingsContext.Provider>
          </MsalProvider>
        </Frame>
      );
  }
}
