import { PublicClientApplication, type IPublicClientApplication } from '@azure/msal-browser';
import { buildMsalConfig } from './msal-config';
import { toProblem } from './problem';
import type { Settings } from './settings';
import type { ShellProblem } from './shell-state';

export type StartupResult =
  /** A settings call failed: the server error page, without a home link. */
  | { kind: 'settings_unavailable' }
  /** The settings could not be used (e.g. an http authority), or MSAL would not start. */
  | { kind: 'configuration_error'; problem: ShellProblem }
  /** MSAL is initialised and the redirect response (if any) handled; redirectProblem when that failed. */
  | { kind: 'ready'; settings: Settings; instance: IPublicClientApplication; redirectProblem?: ShellProblem };

export interface StartupDeps {
  loadSettings: () => Promise<Settings | null>;
  createClient?: (settings: Settings) => IPublicClientApplication;
}

/**
 * Everything that must happen before React renders MsalProvider: the two settings calls, then the
 * MSAL client, `initialize()`, and `handleRedirectPromise({ navigateToLoginRequestUrl: false })`.
 * MsalProvider's own later call gets the same (cached) promise, so the response is processed once.
 */
export async function startUp(deps: StartupDeps): Promise<StartupResult> {
  const settings = await deps.loadSettings();
  if (!settings) return { kind: 'settings_unavailable' };

  let instance: IPublicClientApplication;
  try {
    instance = deps.createClient ? deps.createClient(settings) : new PublicClientApplication(buildMsalConfig(settings.clientInfo));
    await instance.initialize();
  } catch (error) {
    return { kind: 'configuration_error', problem: toProblem(error) };
  }

  let redirectProblem: ShellProblem | undefined;
  try {
    const result = await instance.handleRedirectPromise({ navigateToLoginRequestUrl: false });
    if (result?.account) instance.setActiveAccount(result.account);
  } catch (error) {
    redirectProblem = toProblem(error);
  }
  if (!instance.getActiveAccount()) {
    const [first] = instance.getAllAccounts();
    if (first) instance.setActiveAccount(first);
  }
  return redirectProblem ? { kind: 'ready', settings, instance, redirectProblem } : { kind: 'ready', settings, instance };
}
