import type { PushStateName } from '@mfa-portal/shared';
import type { Insertable, Kysely } from 'kysely';
import type { Database, MfaPushRequestTable } from '../../db/schema.js';

/**
 * SQL of the portal's authenticator app on the builtin store: activation links, device keys, push
 * requests and the portal's generated secrets; no rules here. Pass a transaction as `db` to run inside it.
 */
export function authenticatorRepository(db: Kysely<Database>) {
  return {
    /** The user's row by id, locked until the transaction ends (as builtinRepository.lockUserByUsername). */
    lockUserById(userId: string) {
      return db.selectFrom('mfa_user').selectAll().where('id', '=', userId).forUpdate().executeTakeFirst();
    },

    // --- activation links ---
    insertActivation(values: {
      id: string;
      user_id: string;
      token_hash: string;
      allow_additional: boolean;
      created_at: Date;
      expires_at: Date;
    }) {
      return db.insertInto('mfa_authenticator_activation').values(values).execute();
    },
    findActivationByHash(tokenHash: string) {
      return db.selectFrom('mfa_authenticator_activation').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    /** The user name of the link with this token hash (used or not). */
    async activationOwnerByHash(tokenHash: string): Promise<string | null> {
      const row = await db
        .selectFrom('mfa_authenticator_activation as a')
        .innerJoin('mfa_user as u', 'u.id', 'a.user_id')
        .select('u.username')
        .where('a.token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row?.username ?? null;
    },
    /** The link with this token hash, locked until the transaction ends (its single use is decided under the lock). */
    lockActivationByHash(tokenHash: string) {
      return db.selectFrom('mfa_authenticator_activation').selectAll().where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst();
    },
    findActivation(userId: string, id: string) {
      return db
        .selectFrom('mfa_authenticator_activation')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    /** Marks the link used by `deviceId`, only if still unused: false when another use won. */
    async useActivation(id: string, deviceId: string, at: Date): Promise<boolean> {
      const res = await db
        .updateTable('mfa_authenticator_activation')
        .set({ used_at: at, device_id: deviceId })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return res.numUpdatedRows === 1n;
    },
    /** Forgets the user's links that ran out long ago (a link is kept a while after use: the desktop reads it). */
    deleteOldActivations(userId: string, before: Date) {
      return db.deleteFrom('mfa_authenticator_activation').where('user_id', '=', userId).where('expires_at', '<', before).execute();
    },

    // --- device keys ---
    insertAuthenticator(values: { device_id: string; public_key_jwk: string; push_subscription_sealed: string | null; created_at: Date }) {
      return db.insertInto('mfa_authenticator').values(values).execute();
    },
    /** The device's key with its owner; only a phone of the app (a removed device takes its key with it). */
    findDeviceKey(deviceId: string) {
      return db
        .selectFrom('mfa_authenticator as a')
        .innerJoin('mfa_device as d', 'd.id', 'a.device_id')
        .innerJoin('mfa_user as u', 'u.id', 'd.user_id')
        .select(['a.device_id', 'a.public_key_jwk', 'a.push_subscription_sealed', 'd.user_id', 'd.name', 'u.username'])
        .where('a.device_id', '=', deviceId)
        .executeTakeFirst();
    },
    async setSubscription(deviceId: string, sealed: string | null): Promise<boolean> {
      const res = await db
        .updateTable('mfa_authenticator')
        .set({ push_subscription_sealed: sealed })
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
      return res.numUpdatedRows === 1n;
    },
    /** Clears a subscription the push service said is gone, unless the app replaced it meanwhile. */
    clearSubscriptionIf(deviceId: string, sealed: string) {
      return db
        .updateTable('mfa_authenticator')
        .set({ push_subscription_sealed: null })
        .where('device_id', '=', deviceId)
        .where('push_subscription_sealed', '=', sealed)
        .execute();
    },

    // --- push requests ---
    insertPushRequest(values: Insertable<MfaPushRequestTable>) {
      return db.insertInto('mfa_push_request').values(values).returningAll().executeTakeFirstOrThrow();
    },
    findPushRequest(userId: string, id: string) {
      return db.selectFrom('mfa_push_request').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    },
    /** The device's request, locked until the transaction ends: one answer is decided at a time. */
    lockDeviceRequest(deviceId: string, id: string) {
      return db
        .selectFrom('mfa_push_request')
        .selectAll()
        .where('device_id', '=', deviceId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },
    findDeviceRequest(deviceId: string, id: string) {
      return db.selectFrom('mfa_push_request').selectAll().where('device_id', '=', deviceId).where('id', '=', id).executeTakeFirst();
    },
    /** Waiting and not expired, oldest first, with the account's name. */
    pendingRequests(deviceId: string, now: Date) {
      return db
        .selectFrom('mfa_push_request as r')
        .innerJoin('mfa_user as u', 'u.id', 'r.user_id')
        .selectAll('r')
        .select('u.username')
        .where('r.device_id', '=', deviceId)
        .where('r.state', '=', 'waiting')
        .where('r.expires_at', '>', now)
        .orderBy('r.created_at')
        .orderBy('r.id')
        .execute();
    },
    /** Moves a request from `from` to `to` only if it is still in `from`: false when another answer won. */
    async setRequestState(id: string, from: PushStateName, to: PushStateName, answeredAt?: Date): Promise<boolean> {
      const res = await db
        .updateTable('mfa_push_request')
        .set({ state: to, ...(answeredAt ? { answered_at: answeredAt } : {}) })
        .where('id', '=', id)
        .where('state', '=', from)
        .executeTakeFirst();
      return res.numUpdatedRows === 1n;
    },
    /** Marks a denial of this device as reported ("This wasn't me"): false when it was not one. */
    async markFraud(deviceId: string, id: string): Promise<boolean> {
      const res = await db
        .updateTable('mfa_push_request')
        .set({ state: 'fraud' })
        .where('id', '=', id)
        .where('device_id', '=', deviceId)
        .where('state', '=', 'denied')
        .executeTakeFirst();
      return res.numUpdatedRows === 1n;
    },
    /** Forgets the user's requests that ended long ago. */
    deleteOldRequests(userId: string, before: Date) {
      return db.deleteFrom('mfa_push_request').where('user_id', '=', userId).where('expires_at', '<', before).execute();
    },

    // --- the portal's generated secrets ---
    /** Inserts the secret unless one of that name exists (the first writer wins); then reads what is stored. */
    async insertSecretOnce(name: string, sealed: string): Promise<string> {
      await db
        .insertInto('portal_secret')
        .values({ name, value_sealed: sealed })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db.selectFrom('portal_secret').select('value_sealed').where('name', '=', name).executeTakeFirstOrThrow();
      return row.value_sealed;
    },
    findSecret(name: string) {
      return db.selectFrom('portal_secret').select('value_sealed').where('name', '=', name).executeTakeFirst();
    },
  };
}

export type AuthenticatorRepository = ReturnType<typeof authenticatorRepository>;
