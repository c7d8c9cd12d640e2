import type { MfaProvider } from '../mfa/port.js';
import type { IdpAccount } from './accounts.js';

/**
 * What happens once the password of an account has been checked, decided with the MFA provider:
 * - not provisioned at the MFA provider, status `bypass`, or active without any device: the password
 *   completes sign-in (`amr: ['pwd']`; the portal then shows the missing-two-factor page, or guides
 *   the user to enrol a first device);
 * - active with at least one device: a second step asks for a passcode or a bypass code, and only its
 *   success completes sign-in (`amr: ['pwd', 'mfa']`);
 * - disabled or locked out: refused (no token is issued).
 */
export type LoginStep =
  | { kind: 'complete'; login: LoginResult }
  | { kind: 'second_factor'; accountId: string; upn: string }
  | { kind: 'refused'; refusal: LoginRefusal };

/** The `login` result handed to oidc-provider's `interactionFinished`. */
export interface LoginResult {
  [key: string]: unknown;
  accountId: string;
  /** Authentication methods references (RFC 8176): 'pwd', and 'mfa' once a second factor was verified. */
  amr: string[];
  acr?: string;
  /** Keep the session cookie across browser restarts (for the session's lifetime). */
  remember?: boolean;
}

/** Stable codes of a refused sign-in (they are `ErrorCode`s of `@mfa-portal/shared`). */
export type RefusalCode = 'mfa.user_disabled' | 'mfa.user_locked_out' | 'mfa.user_not_provisioned';

export interface LoginRefusal {
  code: RefusalCode;
  /** The MFA provider's reason (e.g. "Disabled by the security team"), when it gives one. */
  reason: string | null;
}

export type LoginPolicy = (account: IdpAccount) => Promise<LoginStep>;

/** The sign-in name the MFA provider knows the account by (its UPN). */
export const upnOf = (account: IdpAccount) => account.username.toLowerCase();

export const AMR_PASSWORD = ['pwd'] as const;
export const AMR_PASSWORD_AND_MFA = ['pwd', 'mfa'] as const;

export function completeLogin(account: Pick<IdpAccount, 'id'>, amr: readonly string[]): LoginResult {
  return { accountId: account.id, amr: [...amr], remember: true };
}

/** The policy of the embedded provider: the MFA provider's status and device count decide. */
export function mfaLoginPolicy(mfa: Pick<MfaProvider, 'getAccount'>): LoginPolicy {
  return async (account) => {
    const upn = upnOf(account);
    const status = await mfa.getAccount(upn);
    if (!status) return { kind: 'complete', login: completeLogin(account, AMR_PASSWORD) };
    switch (status.status) {
      case 'disabled':
        return { kind: 'refused', refusal: { code: 'mfa.user_disabled', reason: status.statusReason } };
      case 'locked_out':
        return { kind: 'refused', refusal: { code: 'mfa.user_locked_out', reason: status.statusReason } };
      case 'bypass':
        return { kind: 'complete', login: completeLogin(account, AMR_PASSWORD) };
      case 'active':
        return status.deviceCount > 0
          ? { kind: 'second_factor', accountId: account.id, upn }
          : { kind: 'complete', login: completeLogin(account, AMR_PASSWORD) };
    }
  };
}
