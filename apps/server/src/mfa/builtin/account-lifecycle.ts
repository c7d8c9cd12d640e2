import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AccountLifecycle } from '../port.js';

/**
 * Lifecycle of the builtin provider's accounts. `db` is the unit of work's database: inside the
 * caller's transaction (SCIM, just-in-time provisioning and the admin screens audit in the same one)
 * every write joins it, so the change and its audit event commit or roll back together. Usernames
 * match without regard to case.
 */
export function builtinAccountLifecycle(db: Kysely<Database>): AccountLifecycle {
  const byName = (username: string) => sql<boolean>`lower(username) = ${username.toLowerCase()}`;
  return {
    async provision(username, profile, opts = {}) {
      const existing = await db.selectFrom('mfa_user').select('id').where(byName(username)).executeTakeFirst();
      if (existing) {
        await db
          .updateTable('mfa_user')
          .set({ email: profile.email, real_name: profile.realName, updated_at: new Date() })
          .where('id', '=', existing.id)
          .execute();
        return;
      }
      await db
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

    async update(username, changes) {
      const set = {
        ...(changes.newUsername ? { username: changes.newUsername.toLowerCase() } : {}),
        ...(changes.email !== undefined ? { email: changes.email } : {}),
        ...(changes.realName !== undefined ? { real_name: changes.realName } : {}),
      };
      if (Object.keys(set).length === 0) return;
      await db
        .updateTable('mfa_user')
        .set({ ...set, updated_at: new Date() })
        .where(byName(username))
        .execute();
    },

    async setEnabled(username, enabled, reason) {
      const user = await db.selectFrom('mfa_user').select(['id', 'status']).where(byName(username)).forUpdate().executeTakeFirst();
      if (!user) return false;
      if (enabled) {
        if (user.status === 'disabled')
          await db
            .updateTable('mfa_user')
            .set({ status: 'active', status_reason: null, updated_at: new Date() })
            .where('id', '=', user.id)
            .execute();
      } else {
        await db
          .updateTable('mfa_user')
          .set({ status: 'disabled', status_reason: reason, updated_at: new Date() })
          .where('id', '=', user.id)
          .execute();
      }
      return true;
    },

    async remove(username) {
      const user = await db.selectFrom('mfa_user').select('id').where(byName(username)).forUpdate().executeTakeFirst();
      if (user) {
        // Tokens go back to the inventory (their counters kept: used codes stay used).
        await db
          .updateTable('mfa_hardware_token')
          .set({ status: 'available', user_id: null, assigned_at: null, updated_at: new Date() })
          .where('user_id', '=', user.id)
          .execute();
        // Devices (sealed seeds), bypass codes and pending enrolments go with the user (on delete cascade).
        await db.deleteFrom('mfa_user').where('id', '=', user.id).execute();
      }
    },
  };
}
