import type { Kysely, Selectable } from 'kysely';
import type { Database, EnrolmentPassTable } from '../../db/schema.js';

export type EnrolmentPassRow = Selectable<EnrolmentPassTable>;

/** SQL of enrolment passes (hashes only); no rules here. Pass a transaction as `db`. */
export function enrolmentPassRepository(db: Kysely<Database>) {
  return {
    insert: (p: { upn: string; passHash: string; uses: number; expiresAt: Date; createdBy: string; reason: string; now: Date }) =>
      db
        .insertInto('enrolment_pass')
        .values({
          upn: p.upn,
          pass_hash: p.passHash,
          max_uses: p.uses,
          uses_left: p.uses,
          expires_at: p.expiresAt,
          created_by: p.createdBy,
          reason: p.reason,
          created_at: p.now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    listForUser: (upn: string) =>
      db.selectFrom('enrolment_pass').selectAll().where('upn', '=', upn).orderBy('created_at', 'desc').orderBy('id').execute(),
    /** A live pass of this user with this hash, locked until the transaction ends. */
    findLive: (upn: string, passHash: string, now: Date) =>
      db
        .selectFrom('enrolment_pass')
        .selectAll()
        .where('upn', '=', upn)
        .where('pass_hash', '=', passHash)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .where('uses_left', '>', 0)
        .forUpdate()
        .executeTakeFirst(),
    redeem: (id: string, now: Date, session: string) =>
      db
        .updateTable('enrolment_pass')
        .set((eb) => ({ uses_left: eb('uses_left', '-', 1), redeemed_at: now, redeemed_session: session }))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),
    revoke: (upn: string, id: string, now: Date) =>
      db
        .updateTable('enrolment_pass')
        .set({ revoked_at: now })
        .where('upn', '=', upn)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returningAll()
        .executeTakeFirst(),
    /** The latest redemption by this session of a pass that is still not revoked. */
    latestGrant: (upn: string, session: string, since: Date) =>
      db
        .selectFrom('enrolment_pass')
        .select('redeemed_at')
        .where('upn', '=', upn)
        .where('redeemed_session', '=', session)
        .where('revoked_at', 'is', null)
        .where('redeemed_at', '>', since)
        .orderBy('redeemed_at', 'desc')
        .limit(1)
        .executeTakeFirst(),
    /** When SCIM or the first sign-in created the user (null: seeded, imported, or only seen). */
    provisionedAt: async (upn: string) =>
      (await db.selectFrom('directory_user').select('provisioned_at').where('upn', '=', upn).executeTakeFirst())?.provisioned_at ?? null,
    /** Ends every redemption grant of the user (sign-out, a lock): the passes' uses stay spent. */
    endGrants: (upn: string) =>
      db
        .updateTable('enrolment_pass')
        .set({ redeemed_session: null })
        .where('upn', '=', upn)
        .where('redeemed_session', 'is not', null)
        .execute(),
    deleteForUser: (upn: string) => db.deleteFrom('enrolment_pass').where('upn', '=', upn).execute(),
  };
}
