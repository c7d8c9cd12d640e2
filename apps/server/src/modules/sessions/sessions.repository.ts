import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** SQL of the session revocations; no rules here. */
export function sessionsRepository(db: Kysely<Database>) {
  return {
    /** The user's revocation time and why (one primary-key lookup), or undefined. */
    async revocation(upn: string): Promise<{ revokedBefore: Date; reason: string } | undefined> {
      const row = await db.selectFrom('session_revocation').select(['revoked_before', 'reason']).where('upn', '=', upn).executeTakeFirst();
      return row ? { revokedBefore: new Date(row.revoked_before), reason: row.reason } : undefined;
    },
    /** Moves the user's revocation time to `at` (never backwards). */
    async revoke(upn: string, at: Date, reason: string): Promise<void> {
      await db
        .insertInto('session_revocation')
        .values({ upn, revoked_before: at, reason, updated_at: at })
        .onConflict((oc) =>
          oc.column('upn').doUpdateSet({
            revoked_before: sql`greatest(session_revocation.revoked_before, excluded.revoked_before)`,
            reason: sql`excluded.reason`,
            updated_at: sql`excluded.updated_at`,
          }),
        )
        .execute();
    },
  };
}
