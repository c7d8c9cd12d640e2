import type { AppConfig } from '../config.js';

/**
 * Whether a token shows a second factor, as administration requires whatever the roles say.
 * - Embedded provider: `amr` must include `mfa` (it writes ['pwd'] for a password alone and
 *   ['pwd', 'mfa'] once a second factor was verified).
 * - Entra ID: a token that carries `amr` must include `mfa`. Only v1.0 access tokens carry `amr`;
 *   v2.0 access tokens have no `amr` and it cannot be added as an optional claim, so such a token is
 *   accepted (Conditional Access requiring MFA for the portal's app is what guarantees it) unless
 *   ENTRA_REQUIRE_MFA_CLAIM=true refuses tokens without the claim.
 */
export function secondFactorRule(idp: AppConfig['idp']): (amr: readonly string[]) => boolean {
  if (idp.mode === 'embedded') return (amr) => amr.includes('mfa');
  const requireClaim = idp.requireMfaClaim;
  return (amr) => (amr.length === 0 ? !requireClaim : amr.includes('mfa'));
}
