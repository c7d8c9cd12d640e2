import type { MfaData } from '@mfa-portal/shared';
import type { AccountDisabledState } from './pages/AccountDisabledPage';
import type { ShellProblem } from './shell-state';

/**
 * The sign-in shell's own pages (errors and signed out), matched exactly and shown without signing in.
 * Every other address is the main application's; its screens are MAIN_ROUTES in lib/main-routes.ts.
 */
export const SHELL_ROUTES = {
  accountDisabled: '/error/accountdisabled',
  unauthorized: '/error/unauthorized',
  unauthorizedAlias: '/error/401',
  missingTwoFactor: '/error/missingtwofactor',
  serverError: '/error/500',
  loggedOut: '/loggedout',
} as const;

/**
 * Where a loaded profile must send the user instead of the main application: a disabled or locked-out
 * user to the account-disabled page (with the provider's reason), a user unknown to the MFA provider
 * to the missing-two-factor page.
 */
export function errorRouteForMfa(mfa: Pick<MfaData, 'status' | 'statusReason'>): { to: string; state?: AccountDisabledState } | null {
  switch (mfa.status) {
    case 'disabled':
    case 'locked_out':
      return { to: SHELL_ROUTES.accountDisabled, state: { reason: mfa.statusReason } };
    case 'not_provisioned':
      return { to: SHELL_ROUTES.missingTwoFactor };
    default:
      return null;
  }
}

/** The OAuth error with which the identity provider refuses a sign-in. */
export const SIGN_IN_REFUSED_ERROR = 'access_denied';

/**
 * `error_description` of a sign-in the embedded identity provider refused after the password:
 * `<code>` or `<code>: <reason>`, the code a stable MFA error code (see the server's
 * `idp/second-factor.ts`, `refusalDescription`). Other descriptions (e.g. Entra's `AADSTS…`) do not match.
 */
const REFUSAL_DESCRIPTION = /^(mfa\.[a-z_]+)(?::\s*([\s\S]*))?$/;

/**
 * Where a sign-in refused by the identity provider (MSAL's error from the redirect response, as a
 * ShellProblem) sends the user: disabled or locked out → the account-disabled page with the reason;
 * not provisioned → the missing-two-factor page. Null for any other problem (the unauthorized page).
 */
export function errorRouteForSignInProblem(problem: ShellProblem): { to: string; state?: AccountDisabledState } | null {
  if (problem.code !== SIGN_IN_REFUSED_ERROR) return null;
  const match = REFUSAL_DESCRIPTION.exec(problem.message.trim());
  if (!match) return null;
  const reason = match[2]?.trim() || null;
  switch (match[1]) {
    case 'mfa.user_disabled':
    case 'mfa.user_locked_out':
      return { to: SHELL_ROUTES.accountDisabled, state: { reason } };
    case 'mfa.user_not_provisioned':
      return { to: SHELL_ROUTES.missingTwoFactor };
    default:
      return null;
  }
}
