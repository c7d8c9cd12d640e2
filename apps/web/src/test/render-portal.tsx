import { StrictMode, Suspense } from 'react';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import { vi } from 'vitest';
import { PublicClientApplication, type AuthenticationResult } from '@azure/msal-browser';
import { MsalProvider } from '@azure/msal-react';
import type { UserInfoResponse } from '@mfa-portal/shared';
import { AppRoutes } from '../shell/AppRoutes';
import { LoadingFallback } from '../shell/components/Spinner';
import { SettingsContext } from '../shell/contexts';
import { buildMsalConfig } from '../shell/msal-config';
import type { Settings } from '../shell/settings';
import { account, clientInfo, profile as defaultProfile, settings as defaultSettings } from './fixtures';
import { LocationProbe, MainApp } from './render';
import { installFakeApi, type FakeApi } from '../lib/test/fake-api';
import { createFullTestI18n } from '../lib/test/i18n';

/** A real MSAL client that believes Bob is signed in; its token calls are stubbed (no identity provider here). */
export async function signedInMsal() {
  const instance = new PublicClientApplication(buildMsalConfig(clientInfo));
  await instance.initialize();
  vi.spyOn(instance, 'getActiveAccount').mockReturnValue(account);
  vi.spyOn(instance, 'getAllAccounts').mockReturnValue([account]);
  let tokens = 0;
  const silent = vi
    .spyOn(instance, 'acquireTokenSilent')
    .mockImplementation(async () => ({ accessToken: `api-token-${++tokens}` }) as AuthenticationResult);
  const redirect = vi.spyOn(instance, 'acquireTokenRedirect').mockResolvedValue(undefined);
  vi.spyOn(instance, 'logoutRedirect').mockResolvedValue(undefined);
  return { instance, silent, redirect };
}

/**
 * The whole application at `path` as main.tsx renders it (StrictMode, translations, router, MSAL,
 * settings), signed in as Bob, with the network replaced by a fake API. The shell loads the profile
 * (`profile`), then the main application renders the route; resolves once the page's heading shows.
 * `api` sets handlers before anything is requested (a screen that loads data on arrival needs them).
 */
export async function renderPortal(
  options: { path?: string; profile?: UserInfoResponse; api?: (api: FakeApi) => void; settings?: Settings } = {},
) {
  const settings = options.settings ?? defaultSettings;
  const profile = options.profile ?? defaultProfile();
  const api = installFakeApi(profile);
  options.api?.(api);
  const msal = await signedInMsal();
  const i18n = await createFullTestI18n();
  const result = render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={<LoadingFallback />}>
          <MemoryRouter initialEntries={[options.path ?? '/']}>
            <SettingsContext.Provider value={settings}>
              <MsalProvider instance={msal.instance}>
                <AppRoutes mainApp={MainApp} />
                <LocationProbe />
              </MsalProvider>
            </SettingsContext.Provider>
          </MemoryRouter>
        </Suspense>
      </I18nextProvider>
    </StrictMode>,
  );
  // The main application is up once its page heading shows (handlers set after this apply to later calls).
  await screen.findByRole('heading', { level: 1 }, { timeout: 5000 });
  return { ...result, api, msal, profile };
}
