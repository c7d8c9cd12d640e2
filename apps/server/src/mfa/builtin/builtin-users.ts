import type { MfaData } from '@mfa-portal/shared';
import { MfaError, type MfaProvider } from '../port.js';
import type { BuiltinContext } from './builtin-context.js';
import { effectiveStatus, iso, toDevice } from './builtin-mapping.js';

export type BuiltinUsers = Pick<MfaProvider, 'getUserData' | 'getAccount' | 'searchUsers' | 'unlockUser'>;

/** The builtin provider's accounts as the portal reads them, the administrators' search and unlock. */
export function builtinUsers(ctx: BuiltinContext): BuiltinUsers {
  const { repo, tx } = ctx;

  return {
    async getUserData(username, now = new Date()) {
      // One query: the user, their devices (with authenticator models) and the live bypass-code summary, as every page asks for it.
      const user = await repo.findUserData(username, now);
      if (!user) {
        return {
          provider: 'builtin',
          status: 'not_provisioned',
          statusReason: null,
          devices: [],
          bypassCodes: { active: 0, nextExpiresAt: null },
        };
      }
      const { status, statusReason } = effectiveStatus(user, now);
      const data: MfaData = {
        provider: 'builtin',
        status,
        statusReason,
        devices: user.devices.map((d) => toDevice(d, d.aaguid ?? undefined)),
        bypassCodes: { active: Number(user.bypass_active ?? 0), nextExpiresAt: iso(user.bypass_next_expires_at as Date | string | null) },
      };
      return data;
    },

    async getAccount(username, now = new Date()) {
      const user = await repo.findUserByUsername(username);
      if (!user) return null;
      return { ...effectiveStatus(user, now), deviceCount: await repo.countDevices(user.id) };
    },

    async searchUsers(query, page) {
      const rows = await repo.searchUsers(query, page.cursor ?? null, page.limit + 1);
      const users = rows.slice(0, page.limit).map((u) => ({
        username: u.username,
        email: u.email,
        realName: u.real_name,
        status: effectiveStatus(u, new Date()).status,
      }));
      return { users, nextCursor: rows.length > page.limit ? (users[users.length - 1]?.username ?? null) : null };
    },

    async unlockUser(username, opts = {}) {
      const now = opts.now ?? new Date();
      return tx(async (r) => {
        const user = await r.lockUserByUsername(username);
        if (!user) throw new MfaError('not_provisioned');
        // A disabled account stays disabled: unlocking ends lockouts only.
        if (user.status === 'locked_out' || user.failed_attempts !== 0 || user.locked_until !== null) {
          await r.updateUser(user.id, {
            ...(user.status === 'locked_out' ? { status: 'active', status_reason: null } : {}),
            failed_attempts: 0,
            locked_until: null,
            updated_at: now,
          });
        }
        const status = user.status === 'locked_out' ? 'active' : user.status;
        return {
          status,
          statusReason: status === user.status ? user.status_reason : null,
          lockedUntil: null,
          deviceCount: await r.countDevices(user.id),
        };
      });
    },
  };
}
