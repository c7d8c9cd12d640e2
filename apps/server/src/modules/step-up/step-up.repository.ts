import { sql, type Kysely } from 'kysely';
import type { Database, StepUpTable } from '../../db/schema.js';

/** SQL of step-up records; no rules here. */
export function stepUpRepository(db: Kysely<Database>) {
  return {
    insert(upn: string, session: string, method: StepUpTable['method'], verifiedAt: Date) {
      return db.insertInto('step_up').values({ upn, session_key: session, method, verified_at: verifiedAt }).execute();
    },
    /** The most recent verification of one session at or after `since` (and not in the future of `now`). */
    latestSince(upn: string, session: string, since: Date, now: Date) {
      return db
        .selectFrom('step_up')
        .select(['method', 'verified_at'])
        .where('upn', '=', upn)
        .where('session_key', '=', session)
        .where('verified_at', '>', since)
        .where('verified_at', '<=', now)
        .orderBy('verified_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
    deleteOlderThan(upn: string, before: Date) {
      return db.deleteFrom('step_up').where('upn', '=', upn).where('verified_at', '<=', before).execute();
    },
    deleteAll(upn: string) {
      return db.deleteFrom('step_up').where('upn', '=', upn).execute();
    },
    /** Every record of the account, whatever the case its name was stored in. */
    deleteAccount(upn: string) {
      return db
        .deleteFrom('step_up')
        .where(sql<boolean>`lower(upn) = ${upn.toLowerCase()}`)
        .execute();
    },
  };
}
