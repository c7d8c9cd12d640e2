import type { Insertable, Kysely } from 'kysely';
import type { Database, WebauthnChallengePurpose, WebauthnChallengeTable } from '../../db/schema.js';

/** SQL of WebAuthn challenges and the administrator's WebAuthn policy; no rules here. */
export function webauthnRepository(db: Kysely<Database>) {
  return {
    insertChallenge(values: Insertable<WebauthnChallengeTable>) {
      return db.insertInto('webauthn_challenge').values(values).execute();
    },
    /**
     * Takes a challenge out (single use: whatever follows, it cannot be answered twice): the row of
     * that id, user and purpose, or undefined when there is none (never issued, or already used).
     */
    consumeChallenge(id: string, upn: string, purpose: WebauthnChallengePurpose) {
      return db
        .deleteFrom('webauthn_challenge')
        .where('id', '=', id)
        .where('upn', '=', upn)
        .where('purpose', '=', purpose)
        .returningAll()
        .executeTakeFirst();
    },
    /** Removes expired challenges (of everyone), and the user's beyond the newest `keep`. */
    async sweep(upn: string, now: Date, keep: number) {
      await db.deleteFrom('webauthn_challenge').where('expires_at', '<=', now).execute();
      const stale = await db
        .selectFrom('webauthn_challenge')
        .select('id')
        .where('upn', '=', upn)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .offset(keep)
        .limit(1000)
        .execute();
      if (stale.length)
        await db
          .deleteFrom('webauthn_challenge')
          .where(
            'id',
            'in',
            stale.map((s) => s.id),
          )
          .execute();
    },

    getPolicy() {
      return db.selectFrom('webauthn_policy').selectAll().where('id', '=', 1).executeTakeFirst();
    },
    upsertPolicy(values: { aaguid_allow_list: string[]; require_phishing_resistant: boolean; updated_by: string; updated_at: Date }) {
      return db
        .insertInto('webauthn_policy')
        .values({ id: 1, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
    },
  };
}

export type WebauthnRepository = ReturnType<typeof webauthnRepository>;
