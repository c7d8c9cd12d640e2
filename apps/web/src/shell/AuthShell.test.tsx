import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PublicClientApplication, ServerError, type AuthenticationResult } from '@azure/msal-browser';
import { CLAIMS_HEADER, LOGIN_SCOPES, STORAGE_KEY_FIRST_AUTH, STORAGE_KEY_REDIRECT } from '@mfa-portal/shared';
import { buildMsalConfig } from './msal-config';
import { toProblem } from './problem';
import { account, apiInfo, clientInfo, profile, settings } from '../test/fixtures';
import { renderApp } from '../test/render';
import { capabilitiesOf } from '../lib/test/fake-api';

async function createClient(cacheLocation: 'sessionStorage' | 'memoryStorage' = 'sessionStorage') {
  const instance = new PublicClientApplication(buildMsalConfig({ ...clientInfo, cacheLocation }));
  await instance.initialize();
  return instance;
}

/** A real MSAL client that believes Bob is signed in; network-facing calls are stubbed per test. */
async function signedInClient() {
  const instance = await createClient();
  vi.spyOn(instance, 'getActiveAccount').mockReturnValue(account);
  vi.spyOn(instance, 'getAllAccounts').mockReturnValue([account]);
  const silent = vi.spyOn(instance, 'acquireTokenSilent').mockResolvedValue({ accessToken: 'api-token' } as AuthenticationResult);
  const redirect = vi.spyOn(instance, 'acquireTokenRedirect').mockResolvedValue(undefined);
  const logout = vi.spyOn(instance, 'logoutRedirect').mockResolvedValue(undefined);
  return { instance, silent, redirect, logout };
}

/** fetch stub for /account/getuserinfo that honours AbortSignal like the real one. */
function stubProfileFetch(answer: (url: string) => Response | Promise<Response>) {
  const fetchStub = vi.fn((_url: RequestInfo | URL, init?: RequestInit) => {
    return new Promise<Response>((resolve, reject) => {
      const signal = init?.signal;
      if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
      signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      void Promise.resolve()
        .then(() => answer(String(_url)))
        .then((r) => setTimeout(() => resolve(r), 5));
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return fetchStub;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  window.history.replaceState({}, '', '/');
});
afterEach(() => {
  window.history.replaceState({}, '', '/');
});

describe('sign-in', () => {
  it('shows "Authenticating..." and starts a redirect login with the spec scopes, remembering a whitelisted deep link', async () => {
    window.history.replaceState({}, '', '/some/path?tab=2');
    const instance = await createClient();
    const login = vi.spyOn(instance, 'loginRedirect').mockResolvedValue(undefined);

    await renderApp({ path: '/some/path?tab=2', instance });

    expect(await screen.findByRole('status')).toHaveTextContent('Authenticating...');
    await waitFor(() => expect(login).toHaveBeenCalledTimes(1));
    expect(login).toHaveBeenCalledWith({ scopes: [...LOGIN_SCOPES], extraScopesToConsent: [apiInfo.scope] });
    expect(login.mock.calls[0]![0]!.scopes).toEqual(['openid', 'user.read', 'offline_access']);
    expect(sessionStorage.getItem(STORAGE_KEY_FIRST_AUTH)).toBe('true');
    expect(sessionStorage.getItem(STORAGE_KEY_REDIRECT)).toBe('/some/path?tab=2');
  });

  it('treats error routes as exact matches: /error/500/extra goes through sign-in', async () => {
    const instance = await createClient();
    const login = vi.spyOn(instance, 'loginRedirect').mockResolvedValue(undefined);
    await renderApp({ path: '/error/500/extra', instance });
    await waitFor(() => expect(login).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Authenticating...');
  });

  it('stores no return path when the address is not whitelisted', async () => {
    window.history.replaceState({}, '', '/some/path');
    const instance = await createClient();
    const login = vi.spyOn(instance, 'loginRedirect').mockResolvedValue(undefined);

    await renderApp({
      path: '/some/path',
      instance,
      settings: { ...settings, apiInfo: { ...apiInfo, redirectWhitelist: ['https://portal.example.com'] } },
    });

    await waitFor(() => expect(login).toHaveBeenCalledTimes(1));
    expect(sessionStorage.getItem(STORAGE_KEY_FIRST_AUTH)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEY_REDIRECT)).toBeNull();
  });

  it('surfaces the memoryStorage + redirect error (in_mem_redirect_unavailable) instead of hiding it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const instance = await createClient('memoryStorage');
    const login = vi.spyOn(instance, 'loginRedirect');

    await renderApp({ path: '/', instance });

    expect(await screen.findByRole('heading', { level: 1, name: 'You are not allowed to use this portal' })).toBeInTheDocument();
    await waitFor(() => expect(login).toHaveBeenCalled());
    // MSAL itself threw it: the real library, not a stub
    await expect(login.mock.results[0]!.value).rejects.toMatchObject({ errorCode: 'in_mem_redirect_unavailable' });
    expect(screen.getByText('Error code for the service desk: in_mem_redirect_unavailable')).toBeInTheDocument();
    expect(screen.getByText(/keep your sign-in only in the browser's memory/)).toBeInTheDocument();
    expect(login).toHaveBeenCalledTimes(1);
  });

  it('shows a problem from the redirect response and does not loop into another login', async () => {
    const instance = await createClient();
    const login = vi.spyOn(instance, 'loginRedirect').mockResolvedValue(undefined);

    await renderApp({ path: '/', instance, shellProps: { initialProblem: { code: 'state_mismatch', message: 'State mismatch' } } });

    expect(await screen.findByRole('heading', { level: 1, name: 'You are not allowed to use this portal' })).toBeInTheDocument();
    expect(screen.getByText('Error code for the service desk: state_mismatch')).toBeInTheDocument();
    expect(screen.getByText('The sign-in service reported a problem.')).toBeInTheDocument();
    expect(login).not.toHaveBeenCalled();
  });

  it('returns to the remembered deep link after sign-in and clears both keys', async () => {
    sessionStorage.setItem(STORAGE_KEY_FIRST_AUTH, 'true');
    sessionStorage.setItem(STORAGE_KEY_REDIRECT, '/some/path?tab=2#top');
    const { instance } = await signedInClient();
    stubProfileFetch(() => json(profile()));

    await renderApp({ path: '/', instance });

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/some/path?tab=2#top'));
    expect(sessionStorage.getItem(STORAGE_KEY_FIRST_AUTH)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEY_REDIRECT)).toBeNull();
    expect(await screen.findByRole('heading', { level: 1, name: 'Hello, Bob' })).toBeInTheDocument();
  });
});

describe('token and profile', () => {
  it('acquires the API token silently, loads the profile once and shows the main application', async () => {
    const { instance, silent, redirect } = await signedInClient();
    // The main application may ask the API for more (e.g. the provider's capabilities): each such call
    // takes its own token from MSAL's cache, on top of the shell's one acquisition.
    const fetchStub = stubProfileFetch((url) => (url.includes('/api/me/capabilities') ? json(capabilitiesOf('builtin')) : json(profile())));

    await renderApp({ path: '/', instance });

    expect(await screen.findByRole('heading', { level: 1, name: 'Hello, Bob' })).toBeInTheDocument();
    const profileCalls = fetchStub.mock.calls.filter(([u]) => String(u).startsWith('/account/getuserinfo'));
    const apiCalls = fetchStub.mock.calls.filter(([u]) => String(u).includes('/api/'));
    expect(fetchStub).toHaveBeenCalledTimes(profileCalls.length + apiCalls.length);
    // the shell acquires once before loading the profile, although StrictMode mounts effects twice;
    // later acquisitions are the main application's API calls (from MSAL's cache)
    const profileOrder = fetchStub.mock.invocationCallOrder[0]!;
    expect(silent.mock.invocationCallOrder.filter((order) => order < profileOrder)).toHaveLength(1);
    expect(silent).toHaveBeenNthCalledWith(1, { scopes: [apiInfo.scope], account, redirectUri: clientInfo.silentRedirectUri });
    if (apiCalls.length === 0) expect(silent).toHaveBeenCalledTimes(1);
    expect(redirect).not.toHaveBeenCalled();

    expect(profileCalls).toHaveLength(1);
    expect(fetchStub.mock.calls[0]).toBe(profileCalls[0]);
    const [url, init] = profileCalls[0]!;
    expect(String(url)).toMatch(/^\/account\/getuserinfo\?/);
    const headers = new Headers(init?.headers);
    expect(headers.get('authorization')).toBe('Bearer api-token');
    expect(headers.get(CLAIMS_HEADER)).toBeTruthy();
  });

  it('aborts the profile request when the shell goes away (the reducer ignores the abort, see shell-state.test)', async () => {
    const { instance } = await signedInClient();
    const fetchStub = stubProfileFetch(() => new Promise<Response>(() => undefined));

    const { unmount } = await renderApp({ path: '/', instance });
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Loading user profile...'));
    expect(fetchStub).toHaveBeenCalledTimes(1);
    const signal = fetchStub.mock.calls[0]![1]!.signal!;
    expect(signal.aborted).toBe(false);
    unmount();
    expect(signal.aborted).toBe(true);
  });

  it('shows the devices with kind, capabilities and dates', async () => {
    const { instance } = await signedInClient();
    stubProfileFetch(() => json(profile()));
    await renderApp({ path: '/', instance });

    const devices = await screen.findByRole('region', { name: 'Your devices' });
    const phone = within(devices).getByRole('article', { name: "Bob's phone" });
    expect(phone).toHaveTextContent('Phone');
    expect(phone).toHaveTextContent('Push, Passcode');
    expect(phone).toHaveTextContent(/Added\s*Mar 12, 2025/);
    const token = within(devices).getByRole('article', { name: 'Key ring token' });
    expect(token).toHaveTextContent('Hardware token');
    expect(token).toHaveTextContent('123456 (Duo D100)');
    expect(token).toHaveTextContent(/Last used\s*Never/);
    expect(screen.getByRole('region', { name: 'Your multi-factor status' })).toHaveTextContent('Active');
    expect(screen.getByText('You have no active bypass codes.')).toBeInTheDocument();
  });

  it('shows a plain empty state when the user has no device', async () => {
    const { instance } = await signedInClient();
    stubProfileFetch(() => json(profile({ devices: [] })));
    await renderApp({ path: '/', instance });
    expect(await screen.findByText('You have not added a device yet')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('shows "Acquiring access token..." and then "Loading user profile..." while waiting', async () => {
    const { instance, silent } = await signedInClient();
    let giveToken: (r: AuthenticationResult) => void = () => undefined;
    silent.mockReturnValue(new Promise<AuthenticationResult>((resolve) => (giveToken = resolve)));
    let giveProfile: (r: Response) => void = () => undefined;
    const profileAnswer = new Promise<Response>((resolve) => (giveProfile = resolve));
    stubProfileFetch(() => profileAnswer);

    await renderApp({ path: '/', instance });
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Acquiring access token...'));
    giveToken({ accessToken: 'api-token' } as AuthenticationResult);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Loading user profile...'));
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
    giveProfile(json(profile()));
    expect(await screen.findByRole('heading', { level: 1, name: 'Hello, Bob' })).toBeInTheDocument();
  });

  it('falls back to a redirect when the silent call fails, and shows unauthorized when that errors too', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { instance, silent, redirect } = await signedInClient();
    silent.mockRejectedValue(new Error('login_required'));
    redirect.mockRejectedValue(Object.assign(new Error('Interaction is required'), { code: 'interaction_required' }));
    const fetchStub = stubProfileFetch(() => json(profile()));

    await renderApp({ path: '/', instance });

    expect(await screen.findByRole('heading', { level: 1, name: 'You are not allowed to use this portal' })).toBeInTheDocument();
    expect(redirect).toHaveBeenCalledWith({ scopes: [apiInfo.scope], account });
    expect(screen.getByText('Error code for the service desk: interaction_required')).toBeInTheDocument();
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it('does not show unauthorized while the redirect fallback is navigating away', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { instance, silent, redirect } = await signedInClient();
    silent.mockRejectedValue(new Error('login_required'));
    redirect.mockReturnValue(new Promise<void>(() => undefined));
    stubProfileFetch(() => json(profile()));

    await renderApp({ path: '/', instance });
    await waitFor(() => expect(redirect).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('status')).toHaveTextContent('Acquiring access token...');
  });

  it('shows the unauthorized page when the profile call answers 401', async () => {
    const { instance } = await signedInClient();
    const login = vi.spyOn(instance, 'loginRedirect').mockResolvedValue(undefined);
    // Clearing the cache forgets the account, as MSAL does.
    const clearCache = vi.spyOn(instance, 'clearCache').mockImplementation(async () => {
      vi.spyOn(instance, 'getActiveAccount').mockReturnValue(null);
      vi.spyOn(instance, 'getAllAccounts').mockReturnValue([]);
    });
    stubProfileFetch(() => json({ code: 'auth.token_invalid', message: 'Invalid token' }, 401));
    await renderApp({ path: '/', instance });
    expect(await screen.findByRole('heading', { level: 1, name: 'You are not allowed to use this portal' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /sign out/i })).not.toBeInTheDocument();
    // The refused token is forgotten, so that "Sign in again" signs in again...
    expect(clearCache).toHaveBeenCalledWith({ account });
    // ...but only when the user asks: signing in at once would loop through the provider's session.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(login).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { level: 1, name: 'You are not allowed to use this portal' })).toBeInTheDocument();
  });

  it('shows the server error page WITHOUT a home link when the profile call fails otherwise', async () => {
    const { instance } = await signedInClient();
    stubProfileFetch(() => json({ code: 'server.internal', message: 'Internal error' }, 500));
    await renderApp({ path: '/', instance });
    expect(await screen.findByRole('heading', { level: 1, name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to the home page' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});

describe('sign-in refused by the identity provider (redirect error)', () => {
  /** What MSAL throws from handleRedirectPromise for `?error=access_denied&error_description=…`, as start-up keeps it. */
  const refusal = (description: string) => toProblem(new ServerError('access_denied', 'correlation-id', description));

  it.each([
    ['mfa.user_disabled: Disabled by the security team', 'Disabled by the security team'],
    ['mfa.user_locked_out: Too many failed verification attempts', 'Too many failed verification attempts'],
  ])('sends "%s" to /error/accountdisabled with the reason, without signing in again', async (description, reason) => {
    const instance = await createClient();
    const login = vi.spyOn(instance, 'loginRedirect').mockResolvedValue(undefined);
    await renderApp({ path: '/', instance, shellProps: { initialProblem: refusal(description) } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account is disabled' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/error\/accountdisabled$/);
    expect(screen.getByText(`Reason given: ${reason}`)).toBeInTheDocument();
    expect(login).not.toHaveBeenCalled();
  });

  it('shows the account-disabled page without a reason when the provider gave none', async () => {
    const instance = await createClient();
    vi.spyOn(instance, 'loginRedirect').mockResolvedValue(undefined);
    await renderApp({ path: '/', instance, shellProps: { initialProblem: refusal('mfa.user_locked_out') } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account is disabled' })).toBeInTheDocument();
    expect(screen.queryByText(/Reason given/)).not.toBeInTheDocument();
  });

  it('sends a user the MFA provider does not know to /error/missingtwofactor', async () => {
    const instance = await createClient();
    vi.spyOn(instance, 'loginRedirect').mockResolvedValue(undefined);
    await renderApp({ path: '/', instance, shellProps: { initialProblem: refusal('mfa.user_not_provisioned') } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Two-factor authentication is not set up for you' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/error/missingtwofactor');
  });

  it.each([
    ['access_denied', 'AADSTS50105: The signed in user is not assigned to a role for the application.'],
    ['access_denied', 'mfa.something_else: whatever'],
    ['server_error', 'mfa.user_disabled: Disabled by the security team'],
  ])('keeps the unauthorized page for any other problem (%s, "%s")', async (code, description) => {
    const instance = await createClient();
    const login = vi.spyOn(instance, 'loginRedirect').mockResolvedValue(undefined);
    await renderApp({ path: '/', instance, shellProps: { initialProblem: toProblem(new ServerError(code, 'c', description)) } });
    expect(await screen.findByRole('heading', { level: 1, name: 'You are not allowed to use this portal' })).toBeInTheDocument();
    expect(screen.getByText(`Error code for the service desk: ${code}`)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(login).not.toHaveBeenCalled();
  });
});

describe('routing from the MFA status', () => {
  it.each(['disabled', 'locked_out'] as const)('sends a %s user to /error/accountdisabled with the reason', async (status) => {
    const { instance } = await signedInClient();
    stubProfileFetch(() => json(profile({ status, statusReason: 'Too many failed attempts' })));
    await renderApp({ path: '/', instance });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account is disabled' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/error/accountdisabled');
    expect(screen.getByText('Reason given: Too many failed attempts')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('sends a user unknown to the MFA provider to /error/missingtwofactor', async () => {
    const { instance } = await signedInClient();
    stubProfileFetch(() => json(profile({ status: 'not_provisioned', devices: [] })));
    await renderApp({ path: '/', instance });
    expect(await screen.findByRole('heading', { level: 1, name: 'Two-factor authentication is not set up for you' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/error/missingtwofactor');
  });
});

describe('sign-out', () => {
  it('signs out by redirect with the ID token hint, ending at /loggedout', async () => {
    const { instance, logout } = await signedInClient();
    const fetchStub = stubProfileFetch(() => json(profile()));
    await renderApp({ path: '/', instance });

    const banner = await screen.findByRole('banner');
    await userEvent.click(within(banner).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(logout).toHaveBeenCalled());
    expect(logout).toHaveBeenCalledWith({ account, idTokenHint: account.idToken, postLogoutRedirectUri: clientInfo.postLogoutRedirectUri });
    expect(clientInfo.postLogoutRedirectUri.endsWith('/loggedout')).toBe(true);
    // The API is told first (its tokens are revoked), without waiting for it (issue 14).
    const revoke = fetchStub.mock.calls.find(([url]) => String(url).endsWith('/api/me/sign-out'));
    expect(revoke?.[1]).toMatchObject({ method: 'POST', keepalive: true, headers: { authorization: 'Bearer api-token' } });
  });

  it('signs out even when the API cannot be told', async () => {
    const { instance, logout } = await signedInClient();
    stubProfileFetch((url) =>
      url.endsWith('/api/me/sign-out') ? json({ code: 'server.unavailable', message: 'Down' }, 503) : json(profile()),
    );
    await renderApp({ path: '/', instance });
    await userEvent.click(within(await screen.findByRole('banner')).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(logout).toHaveBeenCalledTimes(1));
  });

  it('tells the API with a fresh token, not the one acquired when the page opened (an hour later it has expired)', async () => {
    const { instance, logout, silent } = await signedInClient();
    const fetchStub = stubProfileFetch(() => json(profile()));
    await renderApp({ path: '/', instance });
    const banner = await screen.findByRole('banner');
    silent.mockResolvedValue({ accessToken: 'renewed-token' } as AuthenticationResult);
    await userEvent.click(within(banner).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(logout).toHaveBeenCalledTimes(1));
    const revoke = fetchStub.mock.calls.find(([url]) => String(url).endsWith('/api/me/sign-out'));
    expect(revoke?.[1]).toMatchObject({ headers: { authorization: 'Bearer renewed-token' } });
  });

  it('still signs out (with the token it has) when no fresh token can be had', async () => {
    const { instance, logout, silent } = await signedInClient();
    const fetchStub = stubProfileFetch(() => json(profile()));
    await renderApp({ path: '/', instance });
    const banner = await screen.findByRole('banner');
    silent.mockRejectedValue(new Error('network down'));
    await userEvent.click(within(banner).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(logout).toHaveBeenCalledTimes(1));
    const revoke = fetchStub.mock.calls.find(([url]) => String(url).endsWith('/api/me/sign-out'));
    expect(revoke?.[1]).toMatchObject({ headers: { authorization: 'Bearer api-token' } });
  });
});
