import type { Caller, TokenVerifier } from './token-verifier.js';

/**
 * What the directory says is the upper bound of a token's roles. A token names the roles its user had
 * when it was issued; when the directory (SCIM) knows the user, a role it no longer gives is dropped from
 * the next request on, without waiting for the token to expire. `boundOf` answers the roles the
 * directory gives now, or null when the directory does not know the user (the token is then taken as
 * it is). Only tokens that carry roles pay for the look-up.
 */
export function withDirectoryRoleBound(verify: TokenVerifier, boundOf: (upn: string) => Promise<string[] | null>): TokenVerifier {
  return async (bearer): Promise<Caller> => {
    const caller = await verify(bearer);
    if (caller.roles.length === 0) return caller;
    const bound = await boundOf(caller.upn);
    if (bound === null) return caller;
    const allowed = new Set(bound.map((r) => r.toLowerCase()));
    const roles = caller.roles.filter((r) => allowed.has(r.toLowerCase()));
    return roles.length === caller.roles.length ? caller : { ...caller, roles };
  };
}
