import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database, MfaBypassCodeTable, MfaDeviceTable, MfaUserTable } from '../../db/schema.js';
import { MFA_USER_PREFIX_KEYS, MFA_USER_SEARCH_TEXT, userSearchCondition } from '../../db/search-text.js';

/**
 * SQL of the builtin MFA store; no rules here. Pass a transaction (`trx`) as `db` to run inside it
 * (PGlite: never mix `db` and `trx` in one transaction).
 */
export function builtinRepository(db: Kysely<Database>) {
  return {
    findUserByUsername(username: string) {
      return db
        .selectFrom('mfa_user')
        .selectAll()
        .where(sql`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
    },
    /** The user's row, locked until the transaction ends: serialises changes and verifications per user. */
    lockUserByUsername(username: string) {
      return db
        .selectFrom('mfa_user')
        .selectAll()
        .where(sql`lower(username)`, '=', username.toLowerCase())
        .forUpdate()
        .executeTakeFirst();
    },
    /**
     * Users whose username, email or real name contains `query` (three letters or digits in a row:
     * trigram index), or, for a shorter query, whose username, email, name or surname starts with it
     * (prefix indexes); by username, after `afterUsername`. See db/search-text.ts.
     */
    searchUsers(query: string, afterUsername: string | null, limit: number) {
      let q = db.selectFrom('mfa_user').selectAll();
      const matches = userSearchCondition(query, MFA_USER_SEARCH_TEXT, MFA_USER_PREFIX_KEYS);
      if (matches) q = q.where(matches);
      if (afterUsername !== null) q = q.where(sql`lower(username)`, '>', afterUsername.toLowerCase());
      return q
        .orderBy(sql`lower(username)`)
        .limit(limit)
        .execute();
    },
    /**
     * The user with their devices and live bypass-code summary in ONE query (getuserinfo's read):
     * the cost of a self-service read does not grow with round trips.
     */
    findUserData(username: string, now: Date) {
      return db
        .selectFrom('mfa_user as u')
        .selectAll('u')
        .select((eb) => [
          // Each device with its authenticator model (WebAuthn credentials only), in the same query.
          jsonArrayFrom(
            eb
              .selectFrom('mfa_device as d')
              .leftJoin('mfa_webauthn_credential as c', 'c.device_id', 'd.id')
              .selectAll('d')
              .select('c.aaguid')
              .whereRef('d.user_id', '=', 'u.id')
              .orderBy('d.created_at')
              .orderBy('d.id'),
          ).as('devices'),
          eb
            .selectFrom('mfa_bypass_code as b')
            .select((b) => b.fn.countAll<number>().as('n'))
            .whereRef('b.user_id', '=', 'u.id')
            .where('b.revoked_at', 'is', null)
            .where('b.uses_left', '>', 0)
            .where('b.expires_at', '>', now)
            .as('bypass_active'),
          eb
            .selectFrom('mfa_bypass_code as b')
            .select((b) => b.fn.min('b.expires_at').as('m'))
            .whereRef('b.user_id', '=', 'u.id')
            .where('b.revoked_at', 'is', null)
            .where('b.uses_left', '>', 0)
            .where('b.expires_at', '>', now)
            .as('bypass_next_expires_at'),
        ])
        .where(sql`lower(u.username)`, '=', username.toLowerCase())
        .executeTakeFirst();
    },
    updateUser(userId: string, values: Updateable<MfaUserTable>) {
      return db.updateTable('mfa_user').set(values).where('id', '=', userId).execute();
    },

    listDevices(userId: string) {
      return db.selectFrom('mfa_device').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
    },
    countDevices(userId: string) {
      return db
        .selectFrom('mfa_device')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    },
    findDevice(userId: string, deviceId: string) {
      return db.selectFrom('mfa_device').selectAll().where('user_id', '=', userId).where('id', '=', deviceId).executeTakeFirst();
    },
    /** Devices that can check a passcode, with the seed and counter of hardware tokens. */
    listVerifiableDevices(userId: string) {
      return db
        .selectFrom('mfa_device as d')
        .leftJoin('mfa_hardware_token as t', 't.id', 'd.hardware_token_id')
        .select(['d.id', 'd.kind', 'd.secret_sealed', 'd.last_used_step', 't.id as token_id', 't.seed_sealed', 't.counter'])
        .where('d.user_id', '=', userId)
        .where((eb) => eb.or([eb('d.secret_sealed', 'is not', null), eb('t.id', 'is not', null)]))
        .orderBy('d.created_at')
        .orderBy('d.id')
        .execute();
    },
    insertDevice(values: Insertable<MfaDeviceTable>) {
      return db.insertInto('mfa_device').values(values).returningAll().executeTakeFirstOrThrow();
    },
    renameDevice(userId: string, deviceId: string, name: string) {
      return db
        .updateTable('mfa_device')
        .set({ name })
        .where('user_id', '=', userId)
        .where('id', '=', deviceId)
        .returningAll()
        .executeTakeFirst();
    },
    deleteDevice(userId: string, deviceId: string) {
      return db.deleteFrom('mfa_device').where('user_id', '=', userId).where('id', '=', deviceId).returningAll().executeTakeFirst();
    },
    touchDevice(deviceId: string, at: Date) {
      return db.updateTable('mfa_device').set({ last_used_at: at }).where('id', '=', deviceId).execute();
    },
    /** Records a TOTP step as used, only if it is newer than the last one: false when another use won. */
    async useTotpStep(deviceId: string, step: number, at: Date): Promise<boolean> {
      const res = await db
        .updateTable('mfa_device')
        .set({ last_used_step: step, last_used_at: at })
        .where('id', '=', deviceId)
        .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
        .executeTakeFirst();
      return res.numUpdatedRows === 1n;
    },

    // --- hardware tokens ---
    lockTokenBySerial(serial: string) {
      return db
        .selectFrom('mfa_hardware_token')
        .selectAll()
        .where(sql`upper(serial)`, '=', serial.toUpperCase())
        .forUpdate()
        .executeTakeFirst();
    },
    lockTokenById(tokenId: string) {
      return db.selectFrom('mfa_hardware_token').selectAll().where('id', '=', tokenId).forUpdate().executeTakeFirst();
    },
    /** Moves the counter from `from` to `to` only if nobody moved it meanwhile: false otherwise. */
    async advanceTokenCounter(tokenId: string, from: number, to: number, at: Date): Promise<boolean> {
      const res = await db
        .updateTable('mfa_hardware_token')
        .set({ counter: to, updated_at: at })
        .where('id', '=', tokenId)
        .where('counter', '=', from)
        .executeTakeFirst();
      return res.numUpdatedRows === 1n;
    },
    /** Claims an available token for a user, advancing its counter, only if still available at `from`. */
    async assignToken(tokenId: string, userId: string, from: number, to: number, at: Date): Promise<boolean> {
      const res = await db
        .updateTable('mfa_hardware_token')
        .set({ status: 'assigned', user_id: userId, assigned_at: at, counter: to, updated_at: at })
        .where('id', '=', tokenId)
        .where('status', '=', 'available')
        .where('counter', '=', from)
        .executeTakeFirst();
      return res.numUpdatedRows === 1n;
    },
    releaseToken(tokenId: string, at: Date) {
      return db
        .updateTable('mfa_hardware_token')
        .set({ status: 'available', user_id: null, assigned_at: null, updated_at: at })
        .where('id', '=', tokenId)
        .execute();
    },

    // --- authenticator enrolments ---
    insertEnrolment(values: {
      id: string;
      user_id: string;
      secret_sealed: string;
      allow_additional: boolean;
      created_at: Date;
      expires_at: Date;
    }) {
      return db.insertInto('mfa_totp_enrolment').values(values).execute();
    },
    findEnrolment(userId: string, enrolmentId: string) {
      return db
        .selectFrom('mfa_totp_enrolment')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', enrolmentId)
        .forUpdate()
        .executeTakeFirst();
    },
    deleteEnrolment(enrolmentId: string) {
      return db.deleteFrom('mfa_totp_enrolment').where('id', '=', enrolmentId).execute();
    },
    deleteExpiredEnrolments(userId: string, now: Date) {
      return db.deleteFrom('mfa_totp_enrolment').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
    },
    /** Keeps the `keep` newest pending enrolments of a user, deleting older ones. */
    trimEnrolments(userId: string, keep: number) {
      return db
        .deleteFrom('mfa_totp_enrolment')
        .where('user_id', '=', userId)
        .where(
          'id',
          'not in',
          db
            .selectFrom('mfa_totp_enrolment')
            .select('id')
            .where('user_id', '=', userId)
            .orderBy('created_at', 'desc')
            .orderBy('id')
            .limit(keep),
        )
        .execute();
    },

    // --- bypass codes ---
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
    listLiveBypassCodes(userId: string, now: Date) {
      return db
        .selectFrom('mfa_bypass_code')
        .select(['id', 'created_at', 'expires_at', 'uses_left', 'reuse_count', 'created_by', 'revoked_at'])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('uses_left', '>', 0)
        .where('expires_at', '>', now)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    revokeLiveBypassCodes(userId: string, now: Date) {
      return db
        .updateTable('mfa_bypass_code')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('uses_left', '>', 0)
        .where('expires_at', '>', now)
        .executeTakeFirst()
        .then((r) => Number(r.numUpdatedRows));
    },
    /** Inserts codes whose hash is not taken yet; returns the rows inserted (a taken hash is skipped). */
    insertBypassCodes(rows: Array<Insertable<MfaBypassCodeTable>>) {
      return db
        .insertInto('mfa_bypass_code')
        .values(rows)
        .onConflict((oc) => oc.column('code_hash').doNothing())
        .returning(['id', 'code_hash', 'expires_at', 'uses_left'])
        .execute();
    },
    revokeBypassCode(userId: string, id: string, now: Date) {
      return db
        .updateTable('mfa_bypass_code')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning(['id', 'created_at', 'expires_at', 'uses_left', 'reuse_count', 'created_by', 'revoked_at'])
        .executeTakeFirst();
    },
    /** Takes one use of a live code, atomically: at most `uses_left` concurrent uses ever succeed. */
    useBypassCode(userId: string, codeHash: string, now: Date) {
      return db
        .updateTable('mfa_bypass_code')
        .set((eb) => ({ uses_left: eb('uses_left', '-', 1) }))
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash)
        .where('revoked_at', 'is', null)
        .where('uses_left', '>', 0)
        .where('expires_at', '>', now)
        .returning('id')
        .executeTakeFirst();
    },
  };
}

export type BuiltinRepository = ReturnType<typeof builtinRepository>;
