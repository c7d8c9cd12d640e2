import { clientClaimsSchema, isProtectedAccount, portalRoleOf, type UserInfoQuery, type UserInfoResponse } from '@mfa-portal/shared';
import type { AppConfig } from '../../config.js';
import type { Caller } from '../../auth/token-verifier.js';
import { AppError } from '../../lib/errors.js';
import type { MfaProvider } from '../../mfa/port.js';
import type { DirectoryRepository } from '../admin/directory.repository.js';

/** Decodes the claims header (base64url JSON); a malformed header is bad input, never a 500. */
export function parseClaimsHeader(value: string | undefined) {
  if (value === undefined) return undefined;
  try {
    if (value.length > 4096 || !/^[A-Za-z0-9_-]*={0,2}$/.test(value)) throw new Error('not base64url');
    const parsed = clientClaimsSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    if (!parsed.success) throw new Error('unexpected claims');
    return parsed.data;
  } catch {
    throw new AppError(400, 'request.invalid', undefined, { field: 'x-client-claims', reason: 'The claims header must be base64url-encoded JSON of the identity token claims.' });
  }
}

/**
 * GET /account/getuserinfo: the signed-in user and their MFA data. The token is the authority on who
 * is calling; the query and the claims header must agree with it (403 otherwise).
 */
export async function getUserInfo(deps: { config: AppConfig; mfa: MfaProvider; directory?: DirectoryRepository }, caller: Caller, query: UserInfoQuery, claimsHeader: string | undefined): Promise<UserInfoResponse> {
  const claims = parseClaimsHeader(claimsHeader);
  if (query.userid.toLowerCase() !== caller.upn || (claims?.upn && claims.upn.toLowerCase() !== caller.upn)) {
    throw new AppError(403, 'auth.user_mismatch');
  }
  const firstName = caller.givenName || query.firstname;
  const lastName = caller.familyName || query.lastname;
  const mfa = await deps.mfa.getUserData(caller.upn);
  const displayName = caller.name || [firstName, lastName].filter(Boolean).join(' ') || caller.upn;
  // The portal remembers each user's roles as last seen: admins acting on them need to know (issue 5).
  await deps.directory?.upsertSeen({ upn: caller.upn, displayName, email: caller.email || query.email, roles: caller.roles });
  return {
    user: {
      upn: caller.upn,
      email: caller.email || query.email,
      firstName,
      lastName,
      displayName,
      roles: caller.roles,
      portalRole: portalRoleOf(caller.roles, deps.config.roles),
      isProtected: isProtectedAccount(caller.roles, deps.config.roles),
    },
    mfa,
  };
}
