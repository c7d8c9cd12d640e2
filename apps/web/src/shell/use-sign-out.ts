import { useCallback, useContext, useState } from 'react';
import { useMsal } from '@azure/msal-react';
import { AccessTokenContext, SettingsContext } from './contexts';
import { underBase } from './base-path';
import { toProblem } from './problem';
import type { ShellProblem } from './shell-state';

/** The portal's own sign-out call: every access token of the user issued until now is refused by the API. */
export const SIGN_OUT_PATH = '/api/me/sign-out';

/** How long sign-out waits for a fresh token before it goes on with the one it has. */
export const SIGN_OUT_TOKEN_WAIT_MS = 3000;

/**
 * A token to tell the API with: a fresh one from MSAL (its cache while valid, renewed silently
 * otherwise), since the one acquired when the page opened may have expired an hour later; the one it
 * has when MSAL cannot give one quickly.
 */
async function currentToken(
  instance: ReturnType<typeof useMsal>['instance'],
  account: NonNullable<ReturnType<typeof useMsal>['accounts'][number]>,
  settings: { apiInfo: { scope: string }; clientInfo: { silentRedirectUri?: string } } | null,
  fallback: string | undefined,
): Promise<string | undefined> {
  if (!settings) return fallback;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), SIGN_OUT_TOKEN_WAIT_MS)));
  try {
    const fresh = await Promise.race([
      instance
        .acquireTokenSilent({
          scopes: [settings.apiInfo.scope],
          account,
          ...(settings.clientInfo.silentRedirectUri ? { redirectUri: settings.clientInfo.silentRedirectUri } : {}),
        })
        .then((result) => result.accessToken),
      gaveUp,
    ]);
    return fresh ?? fallback;
  } catch {
    return fallback;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Tells the portal's API first (sign-out revokes the access tokens), without waiting for its answer:
 * the request is sent with `keepalive`, so it completes while the page goes to the identity provider,
 * and a failure never stops the sign-out (in the embedded mode the provider's end-session revokes too).
 */
function revokeAtApi(accessToken: string | undefined): void {
  if (!accessToken) return;
  try {
    void fetch(underBase(SIGN_OUT_PATH), {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
      keepalive: true,
    }).catch(() => undefined);
  } catch {
    // No fetch (or it threw at once): the sign-out goes on.
  }
}

/**
 * Sign-out by redirect, ending at /loggedout (the configured post-logout address). The ID token is
 * passed as id_token_hint so the provider ends the session without asking again.
 */
export function useSignOut(): {
  account: ReturnType<typeof useMsal>['accounts'][number] | null;
  signOut: () => void;
  problem: ShellProblem | null;
} {
  const { instance, accounts } = useMsal();
  const settings = useContext(SettingsContext);
  const accessToken = useContext(AccessTokenContext);
  const [problem, setProblem] = useState<ShellProblem | null>(null);
  const account = instance.getActiveAccount() ?? accounts[0] ?? null;

  const signOut = useCallback(() => {
    if (!account) return;
    setProblem(null);
    void currentToken(instance, account, settings, accessToken)
      .then((token) => {
        revokeAtApi(token);
        return instance.logoutRedirect({
          account,
          ...(account.idToken ? { idTokenHint: account.idToken } : {}),
          ...(settings ? { postLogoutRedirectUri: settings.clientInfo.postLogoutRedirectUri } : {}),
        });
      })
      .catch((error: unknown) => setProblem(toProblem(error)));
  }, [account, accessToken, instance, settings]);

  return { account, signOut, problem };
}
