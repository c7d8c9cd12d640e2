import { MfaError, type AccountLifecycle } from '../port.js';
import type { DuoAdminApi } from './admin-api.js';
import { DUO_PENDING_DELETION_REASON, is400 } from './duo-mapping.js';
import type { DuoUser } from './types.js';

/**
 * Account lifecycle at Duo (SCIM, just-in-time provisioning, the admin screens' disable/enable),
 * through the Admin API's user endpoints. Each method calls Duo inside the caller's transaction and
 * throws when Duo refuses (a DuoApiError: 502/503), so the portal records nothing Duo did not accept.
 *
 * - provision: Create User (`username`, `realname`, `email`, `status` active or disabled) when no Duo
 *   user has that username or alias; otherwise Modify User with the name and e-mail that differ.
 * - update: Modify User with `username`, `realname`, `email` (only those that change).
 * - setEnabled: Modify User `status=disabled`, or `status=active` for a `disabled` user only. A user in
 *   `locked out` or `bypass` is not "disabled": re-enabling leaves them as Duo has them (the lockout
 *   ends with unlock; bypass is Duo administrators' choice); disabling them sets `disabled`. A user
 *   `pending deletion` is in Duo's Trash: restored there, not here.
 * - remove: Delete User (at once and for good; Duo keeps the phones, which other users may share).
 *
 * Users are found as everywhere in the adapter: by username or alias (`GET /admin/v1/users?username=`).
 */
export function duoAccountLifecycle(admin: DuoAdminApi): AccountLifecycle {
  const status = (user: DuoUser) => user.status.toLowerCase();

  /** A username Duo refuses (taken by another user's username or alias): a 400 naming the field. */
  const taken = (err: unknown): never => {
    if (is400(err))
      throw new MfaError('invalid_request', { field: 'userName', reason: 'Duo refused this username (another Duo user or alias has it)' });
    throw err;
  };

  return {
    async provision(username, profile, opts = {}) {
      const user = await admin.findUserByUsername(username);
      if (user) {
        const changes = {
          ...((user.realname ?? '') !== profile.realName ? { realname: profile.realName } : {}),
          ...((user.email ?? '') !== profile.email ? { email: profile.email } : {}),
        };
        if (Object.keys(changes).length > 0) await admin.updateUser(user.user_id, changes);
        return;
      }
      await admin
        .createUser({
          username: username.toLowerCase(),
          realname: profile.realName,
          email: profile.email,
          status: opts.disabledReason ? 'disabled' : 'active',
        })
        .catch(taken);
    },

    async update(username, changes) {
      const user = await admin.findUserByUsername(username);
      if (!user) return;
      const newUsername = changes.newUsername?.toLowerCase();
      const params = {
        ...(newUsername !== undefined && newUsername !== user.username.toLowerCase() ? { username: newUsername } : {}),
        ...(changes.realName !== undefined && changes.realName !== (user.realname ?? '') ? { realname: changes.realName } : {}),
        ...(changes.email !== undefined && changes.email !== (user.email ?? '') ? { email: changes.email } : {}),
      };
      if (Object.keys(params).length > 0) await admin.updateUser(user.user_id, params).catch(taken);
    },

    async setEnabled(username, enabled) {
      const user = await admin.findUserByUsername(username);
      if (!user) return false;
      if (status(user) === 'pending deletion')
        throw new MfaError('not_supported', { reason: `${DUO_PENDING_DELETION_REASON}: restore the user in Duo's Admin Panel` });
      if (enabled && status(user) === 'disabled') await admin.setUserStatus(user.user_id, 'active');
      if (!enabled && status(user) !== 'disabled') await admin.setUserStatus(user.user_id, 'disabled');
      return true;
    },

    async remove(username) {
      const user = await admin.findUserByUsername(username);
      if (user) await admin.deleteUser(user.user_id);
    },
  };
}
