import {
  clientClaimsSchema,
  isProtectedAccount,
  portalRoleOf,
  type MfaData,
  type UserInfoQuery,
  type UserInfoResponse,
} from '@mfa-portal/shared';
import type { AppConfig } from '../../config.js';
import type { Caller } from '../../auth/token-verifier.js';
import { AppError } from '../../lib/errors.js';
import type { ReadCache } from '../../lib/read-cache.js';
import type { MfaProvider } from '../../mfa/port.js';
import type { DirectoryRepository } from '../directory/directory.repository.js';
import type { JitProvisioning } from '../provisioning/jit.service.js';

/** Decodes the claims header (base64url JSON); a malformed header is bad input, never a 500. */
export function parseClaimsHeader(value: string | undefined) {
  if (value === undefined) return undefined;
  try {
    if (value.length > 4096 || !/^[A-Za-z0-9_-]*={0,2}$/.test(value)) throw new Error('not base64url');
    const parsed = clientClaimsSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    if (!parsed.success) throw new Error('unexpected claims');
    return parsed.data;
  } catch {
    throw new AppError({
      code: 'request.invalid',
      details: { field: 'x-client-claims', reason: 'The claims header must be base64url-encoded JSON of the identity token claims.' },
    });
  }
}

/**
 * GET /account/getuserinfo: the signed-in user and their MFA data. The token is the authority on who
 * is calling; the query and the claims header must agree with it (403 otherwise).
 */
export async function getUserInfo(
  deps: {
    config: AppConfig;
    mfa: MfaProvider;
    directory: DirectoryRepository;
    jit?: JitProvisioning;
    /** The user's MFA data as last read, while the change feed keeps it true. */
    userData?: ReadCache<MfaData> | null;
  },
  caller: Caller,
  query: UserInfoQuery,
  claimsHeader: string | undefined,
  meta: { requestId: string; clientAddress: string | null } = { requestId: '', clientAddress: null },
): Promise<UserInfoResponse> {
  const claims = parseClaimsHeader(claimsHeader);
  if (query.userid.toLowerCase() !== caller.upn || (claims?.upn && claims.upn.toLowerCase() !== caller.upn)) {
    throw new AppError({ code: 'auth.user_mismatch' });
  }
  const firstName = caller.givenName || query.firstname;
  const lastName = caller.familyName || query.lastname;
  const read = () => deps.mfa.getUserData(caller.upn);
  let mfa = deps.userData ? await deps.userData.get(caller.upn, read) : await read();
  // Just-in-time provisioning: the first sign-in creates the account (then the user enrols a first device).
  // (An account not provisioned is never kept: user-data-cache.ts.)
  if (mfa.status === 'not_provisioned' && deps.jit?.enabled && (await deps.jit.provision(caller, meta))) mfa = await read();
  const displayName = caller.name || [firstName, lastName].filter(Boolean).join(' ') || caller.upn;
  // The portal remembers each user's roles as last seen: admins acting on them need to know whether the account is protected.
  // Once per access token: the same token shown again (a reload) tells nothing new, so it costs no write.
  await deps.directory.upsertSeen(
    {
      upn: caller.upn,
      displayName,
      email: caller.email || query.email,
      roles: caller.roles,
      ...(mfa.status !== 'not_provisioned' ? { mfaStatus: mfa.status } : {}),
    },
    new Date(),
    caller.issuedAt === undefined ? undefined : String(caller.issuedAt),
  );
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
