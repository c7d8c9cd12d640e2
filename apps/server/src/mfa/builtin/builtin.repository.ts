import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** SQL of the builtin MFA store; no rules here. */
export function builtinRepository(db: Kysely<Database>) {
  return {
    findUserByUsername(username: string) {
      return db.selectFrom('mfa_user').selectAll().where(sql`lower(username)`, '=', username.toLowerCase()).executeTakeFirst();
    },
    listDevices(userId: string) {
      return db.selectFrom('mfa_device').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
    },
    bypassSummary(userId: string, now: Date) {
      return db
        .selectFrom('mfa_bypass_code')
        .select((eb) => [eb.fn.countAll<number>().as('active'), eb.fn.min('expires_at').as('next_expires_at')])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('uses_left', '>', 0)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
    },
  };
}
