import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Caller, TokenVerifier } from '../../auth/token-verifier.js';
import { AppError } from '../../lib/errors.js';
import type { ReadCache } from '../../lib/read-cache.js';
import { sessionsRepository } from './sessions.repository.js';

/**
 * Sign-out revokes: per user, a time before which every access token is refused by the API.
 * Set when the user signs out, when the helpdesk signs them out everywhere (lost device), and when the
 * account is disabled (admin screens, SCIM `active: false`). Kept in the database: every instance
 * refuses the same tokens at once. Access tokens carry their issue time in whole seconds (`iat`), so a
 * token issued in the very second of the revocation is refused too (on the safe side).
 */

export type RevocationReason = 'sign_out' | 'sign_out_everywhere' | 'account_disabled' | 'account_removed' | (string & {});

/** A user's revocation: tokens issued up to `revokedBefore` are refused. */
export interface SessionRevocation {
  revokedBefore: Date;
  reason: RevocationReason;
}

/** How long a revocation read is kept at most (the change feed drops it at once when it changes). */
export const REVOCATION_CACHE_TTL_MS = 60_000;

export interface SessionsService {
  /**
   * Revokes every token of `upn` issued up to now. Writes on the ambient transaction (db/unit-of-work):
   * call it inside the audited change that causes it, so the revocation and its audit event commit together.
   */
  revokeAll(upn: string, reason: RevocationReason, opts?: { now?: Date }): Promise<number>;
  /** Why a token of `upn` issued at `issuedAt` (seconds since the epoch) has been revoked; null when it has not. */
  revokedFor(upn: string, issuedAt: number | undefined): Promise<RevocationReason | null>;
  /** The user's latest revocation time (grants earned before it no longer count); null when never revoked. */
  revokedBefore(upn: string): Promise<Date | null>;
}

export function createSessionsService(deps: {
  db: Kysely<Database>;
  now?: () => Date;
  /**
   * Ends the account's sessions at the identity provider too (the embedded one: its sessions, grants and
   * refresh tokens), so that no browser renews its tokens after the revocation; answers how many records
   * it removed. Not for a plain sign-out: the provider's end-session ends that browser's own session,
   * and the user's other browsers stay signed in (their next tokens are newer than the revocation).
   */
  endProviderSessions?: (upn: string) => Promise<number>;
  /**
   * Each user's revocation as last read, kept while the change feed listens: every API call
   * asks, and the answer changes only when a revocation is written (which the feed reports at once).
   */
  cache?: ReadCache<SessionRevocation | null>;
  /**
   * Ends the grants the user's sessions earned (step-ups, enrolment-pass redemptions) with every
   * revocation, sign-out included: a session that renews its tokens afterwards starts without them.
   */
  endGrants?: (upn: string) => Promise<void>;
}): SessionsService {
  const repo = sessionsRepository(deps.db);
  const clock = deps.now ?? (() => new Date());
  const revocationOf = async (upn: string) => (await repo.revocation(upn)) ?? null;
  const cache = deps.cache;
  return {
    async revokeAll(upn, reason, opts = {}) {
      await repo.revoke(upn.toLowerCase(), opts.now ?? clock(), reason);
      await deps.endGrants?.(upn.toLowerCase());
      if (reason === 'sign_out' || !deps.endProviderSessions) return 0;
      return deps.endProviderSessions(upn);
    },
    async revokedFor(upn, issuedAt) {
      const key = upn.toLowerCase();
      const found = cache ? await cache.get(key, () => revocationOf(key)) : await revocationOf(key);
      if (!found) return null;
      // No `iat`: nothing shows it was issued after the revocation.
      if (issuedAt === undefined || issuedAt <= Math.floor(found.revokedBefore.getTime() / 1000)) return found.reason;
      return null;
    },
    async revokedBefore(upn) {
      const key = upn.toLowerCase();
      const found = cache ? await cache.get(key, () => revocationOf(key)) : await revocationOf(key);
      return found?.revokedBefore ?? null;
    },
  };
}

/**
 * The token verifier with revocation: a valid token of a user whose sessions were revoked after it was
 * issued is refused with 401 `auth.token_expired` (the SPA then signs in again). `except`: revocations
 * this verifier lets through — the profile call (getuserinfo) answers a disabled account's earlier
 * token with its status, so the shell shows "account disabled" rather than "sign in again".
 */
export function withSessionRevocation(
  verify: TokenVerifier,
  sessions: Pick<SessionsService, 'revokedFor'>,
  opts: { except?: readonly RevocationReason[] } = {},
): TokenVerifier {
  return async (bearer): Promise<Caller> => {
    const caller = await verify(bearer);
    const reason = await sessions.revokedFor(caller.upn, caller.issuedAt);
    if (reason !== null && !opts.except?.includes(reason))
      throw new AppError({
        code: 'auth.token_expired',
        details: { reason: 'This sign-in has ended. Sign in again.' },
        headers: { 'www-authenticate': 'Bearer error="invalid_token", error_description="the session was revoked"' },
      });
    return caller;
  };
}
