import type { IdpAccount } from './accounts.js';

/**
 * What happens once the password of an account has been checked. Today the password alone completes
 * sign-in (`amr: ['pwd']`). A second factor slots in here: return a `second_factor` step (a new
 * member of this union, rendered by the interaction routes), and complete with `amr: ['pwd', 'mfa']`
 * once it is verified.
 */
export type LoginStep = { kind: 'complete'; login: LoginResult };

/** The `login` result handed to oidc-provider's `interactionFinished`. */
export interface LoginResult {
  [key: string]: unknown;
  accountId: string;
  /** Authentication methods references (RFC 8176): 'pwd', later 'mfa', 'otp', 'hwk'. */
  amr: string[];
  acr?: string;
  /** Keep the session cookie across browser restarts (for the session's lifetime). */
  remember?: boolean;
}

export type LoginPolicy = (account: IdpAccount) => Promise<LoginStep>;

export const passwordOnlyLogin: LoginPolicy = async (account) => ({
  kind: 'complete',
  login: { accountId: account.id, amr: ['pwd'], remember: true },
});
