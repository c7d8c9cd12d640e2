import type { MfaData } from '@mfa-portal/shared';
import type { AccountDisabledState } from './pages/AccountDisabledPage';

/** The shell's exact-match routes (spec §2). Everything else is the main application. */
export const ROUTES = {
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
      return { to: ROUTES.accountDisabled, state: { reason: mfa.statusReason } };
    case 'not_provisioned':
      return { to: ROUTES.missingTwoFactor };
    default:
      return null;
  }
}
