import { randomUUID } from 'node:crypto';
import { BYPASS_CODE_LIMITS } from '@mfa-portal/shared';
import { formatBypassCode, normalizeBypassCode, validateBypassRequest } from '../common/bypass-codes.js';
import { MfaError, type MfaProvider } from '../port.js';
import type { DuoLookups } from './duo-lookups.js';
import type { DuoProviderDeps } from './duo-deps.js';
import { fromUnix, is404, isLimitReached, toBypassInfo } from './duo-mapping.js';
import { portalIdOf } from './ids.js';

/** Bypass codes at Duo (Admin API): created, listed while live, revoked one by one. */
export function duoBypassCodes(
  deps: Pick<DuoProviderDeps, 'admin'>,
  lookups: DuoLookups,
): Pick<MfaProvider, 'createBypassCodes' | 'listBypassCodes' | 'revokeBypassCode'> {
  const { admin } = deps;
  const { userOrThrow, usableUser, liveBypassCodes } = lookups;

  return {
    async createBypassCodes(username, request, opts = {}) {
      const now = opts.now ?? new Date();
      const [problem] = validateBypassRequest(request);
      if (problem) throw new MfaError('bypass_invalid_request', { field: problem.field, reason: problem.code });
      const user = await usableUser(username);
      const before = await liveBypassCodes(user, now);
      if (!request.replaceExisting && before.length + request.count > BYPASS_CODE_LIMITS.maxLivePerUser)
        throw new MfaError('too_many_live_codes', { field: 'count' });

      let codes: string[];
      try {
        codes = await admin.createBypassCodes(user.user_id, {
          count: request.count,
          validSecs: request.validitySeconds,
          reuseCount: request.reuseCount,
          preserveExisting: !request.replaceExisting,
        });
      } catch (err) {
        if (isLimitReached(err))
          throw new MfaError('limit_reached', { reason: 'Duo holds as many bypass codes for this user as it allows' });
        throw err;
      }
      // Duo answers with the codes only. Their ids are the ones new in the list; Duo does not say which
      // id is which code, so they are paired in order (all share the same expiry and uses).
      const known = new Set(before.map((c) => c.bypass_code_id));
      const fresh = (await liveBypassCodes(user, now)).filter((c) => !known.has(c.bypass_code_id));
      const fallbackExpiry = new Date(now.getTime() + request.validitySeconds * 1000);
      return {
        codes: codes.map((code, i) => {
          const meta = fresh[i];
          return {
            id: meta ? portalIdOf('bypass_code', meta.bypass_code_id) : randomUUID(),
            code: normalizeBypassCode(code) ? formatBypassCode(code) : code,
            expiresAt: meta?.expiration ? fromUnix(meta.expiration) : fallbackExpiry,
            usesLeft: request.reuseCount,
          };
        }),
        replaced: request.replaceExisting ? before.length : 0,
      };
    },

    async listBypassCodes(username, opts = {}) {
      const user = await userOrThrow(username);
      return (await liveBypassCodes(user, opts.now ?? new Date())).map(toBypassInfo);
    },

    async revokeBypassCode(username, id, opts = {}) {
      const user = await usableUser(username);
      const code = (await liveBypassCodes(user, opts.now ?? new Date())).find((c) => portalIdOf('bypass_code', c.bypass_code_id) === id);
      if (!code) throw new MfaError('bypass_not_found');
      try {
        await admin.deleteBypassCode(code.bypass_code_id);
      } catch (err) {
        // Listed a moment ago, gone meanwhile (used up, or revoked elsewhere): done all the same.
        if (!is404(err)) throw err;
      }
      return toBypassInfo(code);
    },
  };
}
