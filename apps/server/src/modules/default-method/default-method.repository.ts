import type { Kysely } from 'kysely';
import type { SignInMethod } from '@mfa-portal/shared';
import type { Database } from '../../db/schema.js';

/** SQL of the people's default sign-in methods (one row per person who chose); no rules here. */
export function defaultMethodRepository(db: Kysely<Database>) {
  return {
    async find(upn: string): Promise<SignInMethod | null> {
      const row = await db
        .selectFrom('default_sign_in_method')
        .select(['device_id', 'method'])
        .where('upn', '=', upn.toLowerCase())
        .executeTakeFirst();
      return row ? { deviceId: row.device_id, method: row.method } : null;
    },
    async save(upn: string, choice: SignInMethod, now: Date): Promise<void> {
      await db
        .insertInto('default_sign_in_method')
        .values({ upn: upn.toLowerCase(), device_id: choice.deviceId, method: choice.method, updated_at: now })
        .onConflict((oc) => oc.column('upn').doUpdateSet({ device_id: choice.deviceId, method: choice.method, updated_at: now }))
        .execute();
    },
    async forget(upn: string): Promise<void> {
      await db.deleteFrom('default_sign_in_method').where('upn', '=', upn.toLowerCase()).execute();
    },
  };
}

export type DefaultMethodRepository = ReturnType<typeof defaultMethodRepository>;
