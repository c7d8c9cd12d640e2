import { bypassExpiresAt, formatBypassCode, generateBypassCode, hashBypassCode, validateBypassRequest } from '../common/bypass-codes.js';
import { MfaError, type MfaProvider } from '../port.js';
import type { BuiltinContext } from './builtin-context.js';
import { assertUsable, BYPASS_INSERT_ATTEMPTS, toBypassInfo } from './builtin-mapping.js';

/**
 * Bypass codes in the portal's own store, kept as peppered hashes: each is shown once when created,
 * then only its metadata. Creating them (and replacing the live ones) is one transaction.
 */
export function builtinBypassCodes(ctx: BuiltinContext): Pick<MfaProvider, 'createBypassCodes' | 'listBypassCodes' | 'revokeBypassCode'> {
  const { repo, tx, userOrThrow } = ctx;
  const { bypassPepper } = ctx.keys;

  return {
    async createBypassCodes(username, request, opts = {}) {
      const now = opts.now ?? new Date();
      const [problem] = validateBypassRequest(request);
      if (problem) throw new MfaError('bypass_invalid_request', { field: problem.field, reason: problem.code });
      return tx(async (r) => {
        const user = await r.lockUserByUsername(username);
        assertUsable(user, now);
        const live = Number((await r.bypassSummary(user.id, now)).active);
        const [tooMany] = validateBypassRequest(request, { liveCodes: live, replaceExisting: request.replaceExisting });
        if (tooMany) throw new MfaError('too_many_live_codes', { field: tooMany.field });
        const replaced = request.replaceExisting ? await r.revokeLiveBypassCodes(user.id, now) : 0;
        const expiresAt = bypassExpiresAt(now, request.validitySeconds);

        const codes: Array<{ id: string; code: string; expiresAt: Date; usesLeft: number }> = [];
        for (let attempt = 0; attempt < BYPASS_INSERT_ATTEMPTS && codes.length < request.count; attempt += 1) {
          const plain = new Map<string, string>();
          while (plain.size < request.count - codes.length) {
            const code = generateBypassCode();
            plain.set(hashBypassCode(code, bypassPepper), code);
          }
          const inserted = await r.insertBypassCodes(
            [...plain.keys()].map((code_hash) => ({
              user_id: user.id,
              code_hash,
              uses_left: request.reuseCount,
              reuse_count: request.reuseCount,
              expires_at: expiresAt,
              created_by: request.createdBy,
              created_at: now,
            })),
          );
          for (const row of inserted) {
            codes.push({
              id: row.id,
              code: formatBypassCode(plain.get(row.code_hash)!),
              expiresAt: row.expires_at,
              usesLeft: row.uses_left,
            });
          }
        }
        if (codes.length < request.count) throw new Error('could not generate unique bypass codes');
        return { codes, replaced };
      });
    },

    async listBypassCodes(username, opts = {}) {
      const user = await userOrThrow(username);
      return (await repo.listLiveBypassCodes(user.id, opts.now ?? new Date())).map(toBypassInfo);
    },

    async revokeBypassCode(username, id, opts = {}) {
      const now = opts.now ?? new Date();
      const user = await repo.findUserByUsername(username);
      assertUsable(user, now);
      const row = await repo.revokeBypassCode(user.id, id, now);
      if (!row) throw new MfaError('bypass_not_found');
      return toBypassInfo(row);
    },
  };
}
