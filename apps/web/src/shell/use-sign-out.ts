import { useCallback, useContext, useState } from 'react';
import { useMsal } from '@azure/msal-react';
import { SettingsContext } from './contexts';
import { toProblem } from './problem';
import type { ShellProblem } from './shell-state';

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
  const [problem, setProblem] = useState<ShellProblem | null>(null);
  const account = instance.getActiveAccount() ?? accounts[0] ?? null;

  const signOut = useCallback(() => {
    if (!account) return;
    setProblem(null);
    instance
      .logoutRedirect({
        account,
        ...(account.idToken ? { idTokenHint: account.idToken } : {}),
        ...(settings ? { postLogoutRedirectUri: settings.clientInfo.postLogoutRedirectUri } : {}),
      })
      .catch((error: unknown) => setProblem(toProblem(error)));
  }, [account, instance, settings]);

  return { account, signOut, problem };
}
