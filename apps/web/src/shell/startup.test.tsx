import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { PublicClientApplication, ServerError, type IPublicClientApplication } from '@azure/msal-browser';
import { App } from './App';
import { buildMsalConfig, validateAuthority } from './msal-config';
import { startUp } from './startup';
import { account, clientInfo, settings } from '../test/fixtures';
import { createTestI18n } from '../test/i18n';
import { MainApp } from '../test/render';

describe('MSAL configuration', () => {
  it('uses the settings, OIDC protocol mode, and default scopes without offline_access', () => {
    const config = buildMsalConfig(clientInfo);
    expect(config.auth).toMatchObject({
      clientId: clientInfo.clientId,
      authority: clientInfo.authority,
      knownAuthorities: clientInfo.knownAuthorities,
      redirectUri: clientInfo.redirectUri,
      postLogoutRedirectUri: clientInfo.postLogoutRedirectUri,
      OIDCOptions: { defaultScopes: ['openid', 'profile'] },
    });
    expect(config.system?.protocolMode).toBe('OIDC');
    expect(config.cache?.cacheLocation).toBe('sessionStorage');
  });

  it('sets no OIDC options in AAD mode', () => {
    const config = buildMsalConfig({ ...clientInfo, protocolMode: 'AAD', authority: 'https://login.microsoftonline.com/tenant-id' });
    expect(config.auth.OIDCOptions).toBeUndefined();
    expect(config.system?.protocolMode).toBe('AAD');
  });

  it('refuses an authority that is not https', () => {
    expect(() => validateAuthority('http://localhost:8443/idp')).toThrow(expect.objectContaining({ code: 'authority_not_https' }));
    expect(() => validateAuthority('not a url')).toThrow(expect.objectContaining({ code: 'authority_invalid' }));
    expect(validateAuthority('https://localhost:8443/idp').host).toBe('localhost:8443');
  });
});

describe('start-up', () => {
  it('yields settings_unavailable when a settings call failed', async () => {
    await expect(startUp({ loadSettings: async () => null })).resolves.toEqual({ kind: 'settings_unavailable' });
  });

  it('refuses a non-https authority before creating MSAL, and the page says so', async () => {
    const result = await startUp({
      loadSettings: async () => ({ ...settings, clientInfo: { ...clientInfo, authority: 'http://localhost:8443/idp' } }),
    });
    expect(result).toMatchObject({ kind: 'configuration_error', problem: { code: 'authority_not_https' } });

    render(<App i18n={await createTestI18n()} startup={result} mainApp={MainApp} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'The portal is not set up correctly' })).toBeInTheDocument();
    expect(screen.getByText('Error code for the service desk: authority_not_https')).toBeInTheDocument();
    expect(screen.getByText(/does not start with https:\/\//)).toBeInTheDocument();
  });

  it('shows the server error page without a home link when the settings are missing', async () => {
    render(<App i18n={await createTestI18n()} startup={{ kind: 'settings_unavailable' }} mainApp={MainApp} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('initialises MSAL and handles the redirect (navigateToLoginRequestUrl: false) before rendering, then picks the account', async () => {
    const order: string[] = [];
    let instance!: PublicClientApplication;
    let setActive!: ReturnType<typeof vi.spyOn>;
    const result = await startUp({
      loadSettings: async () => settings,
      createClient: (s) => {
        instance = new PublicClientApplication(buildMsalConfig(s.clientInfo));
        const init = instance.initialize.bind(instance);
        vi.spyOn(instance, 'initialize').mockImplementation(async (...args) => {
          order.push('initialize');
          return init(...args);
        });
        vi.spyOn(instance, 'handleRedirectPromise').mockImplementation(async (options) => {
          order.push(`handleRedirectPromise:${JSON.stringify(options)}`);
          return { account } as Awaited<ReturnType<IPublicClientApplication['handleRedirectPromise']>>;
        });
        setActive = vi.spyOn(instance, 'setActiveAccount');
        return instance;
      },
    });
    expect(order).toEqual(['initialize', 'handleRedirectPromise:{"navigateToLoginRequestUrl":false}']);
    expect(result.kind).toBe('ready');
    expect(setActive).toHaveBeenCalledWith(account);
  });

  it('keeps a redirect-handling error to show it, instead of failing start-up', async () => {
    const result = await startUp({
      loadSettings: async () => settings,
      createClient: (s) => {
        const instance = new PublicClientApplication(buildMsalConfig(s.clientInfo));
        vi.spyOn(instance, 'handleRedirectPromise').mockRejectedValue(
          Object.assign(new Error('state mismatch'), { code: 'state_mismatch' }),
        );
        return instance;
      },
    });
    expect(result).toMatchObject({ kind: 'ready', redirectProblem: { code: 'state_mismatch' } });
  });

  it("keeps a sign-in refused by the identity provider with its error and description (MSAL's ServerError)", async () => {
    const result = await startUp({
      loadSettings: async () => settings,
      createClient: (s) => {
        const instance = new PublicClientApplication(buildMsalConfig(s.clientInfo));
        vi.spyOn(instance, 'handleRedirectPromise').mockRejectedValue(
          new ServerError('access_denied', 'correlation-id', 'mfa.user_disabled: Disabled by the security team'),
        );
        return instance;
      },
    });
    expect(result).toMatchObject({
      kind: 'ready',
      redirectProblem: { code: 'access_denied', message: 'mfa.user_disabled: Disabled by the security team' },
    });
  });
});
