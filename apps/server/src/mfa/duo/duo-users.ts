import type { MfaData, MfaStatus } from '@mfa-portal/shared';
import { MfaError, type MfaProvider } from '../port.js';
import type { DuoLookups } from './duo-lookups.js';
import type { DuoProviderDeps } from './duo-deps.js';
import { fromUnix, is404, iso, statusOf } from './duo-mapping.js';
import type { DuoUser } from './types.js';

export type DuoUsers = Pick<MfaProvider, 'getUserData' | 'getAccount' | 'eachUserPage' | 'searchUsers' | 'unlockUser'>;

/**
 * Duo's users as the portal reads them: status (`locked out` → locked_out, `pending deletion` →
 * disabled, absent → not_provisioned), the administrators' search over the whole list, and unlock
 * (Modify User with `status=active`, for a locked-out user only).
 */
export function duoUsers(deps: Pick<DuoProviderDeps, 'admin'>, lookups: DuoLookups): DuoUsers {
  const { admin } = deps;
  const { findUser, userOrThrow, devicesOf, liveBypassCodes } = lookups;

  return {
    async getUserData(username, now = new Date()) {
      const user = await findUser(username);
      if (!user)
        return {
          provider: 'duo',
          status: 'not_provisioned',
          statusReason: null,
          devices: [],
          bypassCodes: { active: 0, nextExpiresAt: null },
        };
      const [devices, codes] = await Promise.all([devicesOf(user), liveBypassCodes(user, now)]);
      const expiries = codes.flatMap((c) => (c.expiration === null ? [] : [c.expiration]));
      const { status, statusReason } = statusOf(user);
      return {
        provider: 'duo',
        status: status satisfies MfaStatus,
        statusReason,
        devices: devices.devices,
        bypassCodes: { active: codes.length, nextExpiresAt: expiries.length ? iso(fromUnix(Math.min(...expiries))) : null },
      } satisfies MfaData;
    },

    async getAccount(username) {
      const user = await findUser(username);
      if (!user) return null;
      // The user object lists its phones and tokens; read the lists when it does not.
      const deviceCount =
        Array.isArray(user.phones) && Array.isArray(user.tokens)
          ? user.phones.length + user.tokens.length
          : (await devicesOf(user)).devices.length;
      // Duo does not say when a lockout ends (an account-wide setting, or an administrator).
      return { ...statusOf(user), lockedUntil: null, deviceCount };
    },

    async eachUserPage(onPage, beforeCall) {
      await admin.eachUserPage(
        (users) =>
          onPage(
            users.map((u) => ({
              username: u.username,
              email: u.email ?? '',
              realName: u.realname ?? '',
              status: statusOf(u).status,
              ...(typeof u.is_enrolled === 'boolean' ? { enrolled: u.is_enrolled } : {}),
            })),
          ),
        beforeCall,
      );
    },

    async searchUsers(query, page) {
      // Duo's Admin API looks users up by exact username only: the portal reads the whole list (every
      // page) and keeps those whose username, alias, email or real name contains the query, by username;
      // the cursor is the last username of the page before.
      const q = query.trim().toLowerCase();
      const matches = (await admin.listUsers())
        .filter((u) => {
          if (!q) return true;
          const aliases = [u.alias1, u.alias2, u.alias3, u.alias4].filter((a): a is string => typeof a === 'string');
          return [u.username, u.email ?? '', u.realname ?? '', ...aliases].some((v) => v.toLowerCase().includes(q));
        })
        .sort((a, b) =>
          a.username.toLowerCase() < b.username.toLowerCase() ? -1 : a.username.toLowerCase() > b.username.toLowerCase() ? 1 : 0,
        );
      const after = page.cursor?.toLowerCase();
      const rest = after === undefined ? matches : matches.filter((u) => u.username.toLowerCase() > after);
      const users = rest.slice(0, page.limit).map((user) => ({
        username: user.username,
        email: user.email ?? '',
        realName: user.realname ?? '',
        status: statusOf(user).status,
      }));
      return { users, nextCursor: rest.length > page.limit ? (users.at(-1)?.username ?? null) : null };
    },

    async unlockUser(username) {
      const user = await userOrThrow(username);
      const devices = () =>
        Array.isArray(user.phones) && Array.isArray(user.tokens)
          ? Promise.resolve(user.phones.length + user.tokens.length)
          : devicesOf(user).then((d) => d.devices.length);
      // Only a lockout ends; a disabled (or bypass) user stays as the Duo administrators set them.
      if (user.status.toLowerCase() !== 'locked out') return { ...statusOf(user), lockedUntil: null, deviceCount: await devices() };
      let after: DuoUser;
      try {
        after = await admin.setUserStatus(user.user_id, 'active');
      } catch (err) {
        if (is404(err)) throw new MfaError('not_provisioned');
        throw err;
      }
      return { ...statusOf(after), lockedUntil: null, deviceCount: await devices() };
    },
  };
}
