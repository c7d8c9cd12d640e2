import { Suspense, useEffect, useMemo, useReducer, useRef, useState, type ComponentType } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { InteractionStatus, type AccountInfo } from '@azure/msal-browser';
import { useMsal } from '@azure/msal-react';
import { LOGIN_SCOPES } from '@mfa-portal/shared';
import { basePathFrom } from './base-path';
import { ChunkErrorBoundary } from './components/ChunkErrorBoundary';
import { LoadingFallback, Spinner } from './components/Spinner';
import { AccessTokenContext, MfaDataContext, UserContext, useSettings, type MfaDataState } from './contexts';
import { ServerErrorPage } from './pages/ServerErrorPage';
import { UnauthorizedPage } from './pages/UnauthorizedPage';
import { toProblem } from './problem';
import { consumeReturnPath, rememberReturnPath } from './return-path';
import { errorRouteForMfa, errorRouteForSignInProblem } from './shell-routes';
import { initialShellState, shellReducer, type ShellProblem } from './shell-state';
import { claimsFromAccount, fetchUserInfo } from './user-info';

/** Interaction states during which the user is still being signed in (MSAL v5 has no separate "login" status). */
const SIGNING_IN: ReadonlySet<InteractionStatus> = new Set([InteractionStatus.Startup, InteractionStatus.HandleRedirect]);

export interface AuthShellProps {
  /**
   * The main application, rendered once the user and their profile are known. main.tsx passes it in as
   * a lazily loaded component (its own chunk, see lazyWithTimeout): the shell never imports it.
   */
  mainApp: ComponentType;
  /** A problem from handling the redirect response at start-up (shown instead of signing in again). */
  initialProblem?: ShellProblem | undefined;
  /** Where firstAuth/redirect are kept across the login redirect. */
  storage?: Storage;
}

/**
 * The sign-in shell: redirect login, silent token (redirect fallback), profile, then
 * the lazily loaded main application with the user, token and MFA data in context.
 */
export function AuthShell({ mainApp: MainApp, initialProblem, storage = window.sessionStorage }: AuthShellProps) {
  const { t } = useTranslation('shell');
  const { instance, inProgress, accounts } = useMsal();
  const { clientInfo, apiInfo } = useSettings();
  const navigate = useNavigate();

  const account: AccountInfo | null = instance.getActiveAccount() ?? accounts[0] ?? null;
  const accountId = account?.homeAccountId;
  const accountRef = useRef(account);
  accountRef.current = account;

  const [state, dispatch] = useReducer(shellReducer, initialShellState);
  const [loginProblem, setLoginProblem] = useState<ShellProblem | undefined>(initialProblem);
  const [mfaData, setMfaData] = useState<MfaDataState>({});
  const loginStarted = useRef(false);
  const tokenRequestedFor = useRef<string | undefined>(undefined);

  // 1. Nobody signed in and nothing in progress: remember where we are (whitelisted addresses only), then log in.
  useEffect(() => {
    // After a refused token (profile 401) the cache is cleared and the unauthorized page stays until the
    // user chooses "Sign in again": signing in at once would loop through the provider's session.
    if (accountId || inProgress !== InteractionStatus.None || loginProblem || loginStarted.current || state.status === 'unauthorized')
      return;
    loginStarted.current = true;
    rememberReturnPath(window.location, apiInfo.redirectWhitelist, basePathFrom(), storage);
    instance.loginRedirect({ scopes: [...LOGIN_SCOPES], extraScopesToConsent: [apiInfo.scope] }).catch((error: unknown) => {
      console.error('Sign-in could not start.', error);
      setLoginProblem(toProblem(error));
    });
  }, [accountId, inProgress, loginProblem, instance, apiInfo, storage, state.status]);

  // 2. Signed in after a remembered first sign-in: go back to the path the user asked for.
  useEffect(() => {
    if (!accountId || inProgress !== InteractionStatus.None) return;
    const path = consumeReturnPath(storage);
    if (path) void navigate(path, { replace: true });
  }, [accountId, inProgress, navigate, storage]);

  // 3. Signed in, nothing pending: the API token, silently; by redirect if that fails.
  useEffect(() => {
    const current = accountRef.current;
    if (!current || inProgress !== InteractionStatus.None || state.status !== 'loading') return;
    if (tokenRequestedFor.current === current.homeAccountId) return;
    tokenRequestedFor.current = current.homeAccountId;
    const scopes = [apiInfo.scope];
    instance
      .acquireTokenSilent({ scopes, account: current, redirectUri: clientInfo.silentRedirectUri })
      .then((result) => dispatch({ type: 'tokenAcquired', accessToken: result.accessToken }))
      .catch((silentError: unknown) => {
        console.warn('Silent token acquisition failed; continuing by redirect.', silentError);
        return instance.acquireTokenRedirect({ scopes, account: current }).catch((error: unknown) => {
          console.error('Token acquisition by redirect failed.', error);
          dispatch({ type: 'tokenFailed', problem: toProblem(error) });
        });
      });
  }, [accountId, inProgress, state.status, instance, apiInfo.scope, clientInfo.silentRedirectUri]);

  // 4. Token ready, no user yet: the profile. Aborted on unmount (and by StrictMode's rehearsal).
  const accessToken = state.status === 'tokenready' ? state.accessToken : undefined;
  useEffect(() => {
    const current = accountRef.current;
    if (accessToken === undefined || !current) return;
    const controller = new AbortController();
    void fetchUserInfo({
      accessToken,
      claims: claimsFromAccount(current),
      fallbackUserId: current.username,
      signal: controller.signal,
    }).then((result) => {
      switch (result.kind) {
        case 'ok':
          setMfaData(result.data.mfa);
          dispatch({ type: 'profileLoaded', profile: result.data });
          break;
        case 'unauthorized':
          // The API refused this token (revoked at a sign-out elsewhere, or the account disabled): forget
          // the cached account and tokens, so that "Sign in again" really signs in again instead of
          // offering the same refused token until it expires.
          instance
            .clearCache({ account: current })
            .catch((error: unknown) => console.warn('The sign-in cache could not be cleared.', error));
          dispatch({ type: 'profileUnauthorized' });
          break;
        case 'failed':
          dispatch({ type: 'profileFailed', error: result.error });
          break;
        case 'aborted':
          dispatch({ type: 'profileAborted' });
          break;
      }
    });
    return () => controller.abort();
  }, [accessToken, accountId, instance]);

  const user = state.status === 'ready' ? state.profile.user : undefined;
  const userContext = useMemo(() => ({ user, mfaData }), [user, mfaData]);
  const mfaContext = useMemo(() => ({ mfaData, setMfaData }), [mfaData]);

  if (loginProblem) {
    // The identity provider refused the sign-in itself (disabled or locked out): the page for that, with the reason.
    const refused = errorRouteForSignInProblem(loginProblem);
    if (refused) return <Navigate to={refused.to} state={refused.state} replace />;
    return <UnauthorizedPage problem={loginProblem} />;
  }
  // Before the account check: a refused token's account has just been cleared from the cache.
  if (state.status === 'unauthorized') return <UnauthorizedPage problem={state.problem} />;
  if (!account) return <Spinner label={t('status.authenticating')} />;

  switch (state.status) {
    case 'loading':
      return <Spinner label={SIGNING_IN.has(inProgress) ? t('status.authenticating') : t('status.acquiring_token')} />;
    case 'tokenready':
      return <Spinner label={t('status.loading_profile')} />;
    case 'failed':
      return <ServerErrorPage showHomeLink={false} error={state.error} />;
    case 'ready': {
      const errorRoute = errorRouteForMfa(state.profile.mfa);
      if (errorRoute) return <Navigate to={errorRoute.to} state={errorRoute.state} replace />;
      return (
        <AccessTokenContext.Provider value={state.accessToken}>
          <MfaDataContext.Provider value={mfaContext}>
            <UserContext.Provider value={userContext}>
              <ChunkErrorBoundary>
                <Suspense fallback={<LoadingFallback />}>
                  <MainApp />
                </Suspense>
              </ChunkErrorBoundary>
            </UserContext.Provider>
          </MfaDataContext.Provider>
        </AccessTokenContext.Provider>
      );
    }
  }
}
