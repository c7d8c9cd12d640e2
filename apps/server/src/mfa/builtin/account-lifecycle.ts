import { sql } from 'kysely';
import { forgetSessionState } from '../common/session-state.js';
import type { AccountLifecycle } from '../port.js';

/**
 * Lifecycle of the builtin provider's accounts, written in the caller's transaction (SCIM, just-in-time
 * provisioning and the admin screens audit in the same one). Usernames match without regard to case.
 */
export function builtinAccountLifecycle(): AccountLifecycle {
  const byName = (username: string) => sql<boolean>`lower(username) = ${username.toLowerCase()}`;
  return {
    async provision(username, profile, tx, opts = {}) {
      const existing = await tx.selectFrom('mfa_user').select('id').where(byName(username)).executeTakeFirst();
      if (existing) {
        await tx
          .updateTable('mfa_user')
          .set({ email: profile.email, real_name: profile.realName, updated_at: new Date() })
          .where('id', '=', existing.id)
          .execute();
        return;
      }
      await tx
        .insertInto('mfa_user')
        .values({
          username: username.toLowerCase(),
          email: profile.email,
          real_name: profile.realName,
          status: opts.disabledReason ? 'disabled' : 'active',
          status_reason: opts.disabledReason ?? null,
        })
        .execute();
    },

    async update(username, changes, tx) {
      const set = {
        ...(changes.newUsername ? { username: changes.newUsername.toLowerCase() } : {}),
        ...(changes.email !== undefined ? { email: changes.email } : {}),
        ...(changes.realName !== undefined ? { real_name: changes.realName } : {}),
      };
      if (Object.keys(set).length === 0) return;
      await tx
        .updateTable('mfa_user')
        .set({ ...set, updated_at: new Date() })
        .where(byName(username))
        .execute();
    },

    async setEnabled(username, enabled, reason, tx) {
      const user = await tx.selectFrom('mfa_user').select(['id', 'status']).where(byName(username)).forUpdate().executeTakeFirst();
      if (!user) return false;
      if (enabled) {
        if (user.status === 'disabled')
          await tx
            .updateTable('mfa_user')
            .set({ status: 'active', status_reason: null, updated_at: new Date() })
            .where('id', '=', user.id)
            .execute();
      } else {
        await tx
          .updateTable('mfa_user')
          .set({ status: 'disabled', status_reason: reason, updated_at: new Date() })
          .where('id', '=', user.id)
          .execute();
      }
      return true;
    },

    async remove(username, tx) {
      const user = await tx.selectFrom('mfa_user').select('id').where(byName(username)).forUpdate().executeTakeFirst();
      if (user) {
        // Tokens go back to the inventory (their counters kept: used codes stay used).
        await tx
          .updateTable('mfa_hardware_token')
          .set({ status: 'available', user_id: null, assigned_at: null, updated_at: new Date() })
          .where('user_id', '=', user.id)
          .execute();
        // Devices (sealed seeds), bypass codes and pending enrolments go with the user (on delete cascade).
        await tx.deleteFrom('mfa_user').where('id', '=', user.id).execute();
      }
      await forgetSessionState(tx, username);
    },
  };
}
