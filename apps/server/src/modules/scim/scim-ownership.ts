import { isProtectedAccount } from '@mfa-portal/shared';
import type { ScimContext } from './scim-context.js';
import type { ForeignAccount, ScimRepository } from './scim.repository.js';

/**
 * SCIM manages only what it provisioned: an account it did not create (seeded, imported, signed in
 * before) is someone else's, and a SCIM `userName` that names it is taken, unless the account may be
 * adopted (see `ScimAdoption`). The token's maker is out of the token's reach altogether.
 */

/** Which accounts SCIM did not create it may take over. */
export interface ScimAdoption {
  /** Accounts that sign-ins from the same directory created just in time (PROVISIONING=both); never protected ones. */
  jit: boolean;
  /** Any other account (seeded, imported), protected ones excepted. */
  existing: boolean;
  /** Protected accounts too (a restricted role, or roles never known); only with `existing`. */
  protected: boolean;
}

export const NO_ADOPTION: ScimAdoption = { jit: false, existing: false, protected: false };

export const TOKEN_CREATOR_REFUSED =
  'This account belongs to the administrator who created the SCIM token; it cannot be changed with that token.';

export function scimOwnership(deps: { adoption?: ScimAdoption; isProtected?: (roles: readonly string[]) => boolean }) {
  const adoption = deps.adoption ?? NO_ADOPTION;
  const isProtected = deps.isProtected ?? ((roles: readonly string[]) => isProtectedAccount(roles));

  function isProtectedForeign(a: ForeignAccount): boolean {
    // Roles never seen keep an account protected, as everywhere else in the portal.
    if (a.directory && a.directory.roles === null) return true;
    return isProtected([...(a.directory?.roles ?? []), ...(a.idp?.roles ?? [])]);
  }

  return {
    /** The token's maker: SCIM neither shows nor changes their account with it. */
    isTokenCreator: (ctx: ScimContext, userName: string) =>
      ctx.tokenCreatedBy !== null && ctx.tokenCreatedBy === userName.trim().toLowerCase(),

    /**
     * The account SCIM would take over by this name, if any. A name the portal has only seen at a sign-in
     * (no account at the embedded identity provider, none known at the MFA provider) is no account: with
     * Entra ID, people often sign in once before the directory provisions them.
     */
    async accountNamed(r: ScimRepository, userName: string): Promise<ForeignAccount | null> {
      const a = await r.findAccount(userName);
      if (!a || a.idp) return a;
      const d = a.directory;
      if (d && (d.source === 'sign_in' || d.source === null) && d.mfaStatus === null) return null;
      return a;
    },

    mayAdopt(a: ForeignAccount): boolean {
      if (isProtectedForeign(a)) return adoption.existing && adoption.protected;
      if (adoption.jit && a.directory?.source === 'jit') return true;
      return adoption.existing;
    },
  };
}

export type ScimOwnership = ReturnType<typeof scimOwnership>;
