import type { Insertable, Kysely } from 'kysely';
import type { Database, MfaWebauthnCredentialTable } from '../../db/schema.js';

/** SQL of the builtin provider's WebAuthn credentials; no rules here. Pass a transaction as `db` to run inside it. */
export function webauthnCredentialRepository(db: Kysely<Database>) {
  return {
    listForUser(userId: string) {
      return db
        .selectFrom('mfa_webauthn_credential as c')
        .innerJoin('mfa_device as d', 'd.id', 'c.device_id')
        .select(['c.device_id', 'c.credential_id', 'c.public_key', 'c.sign_count', 'c.transports', 'c.aaguid'])
        .where('d.user_id', '=', userId)
        .orderBy('d.created_at')
        .execute();
    },
    findByCredentialId(credentialId: string) {
      return db.selectFrom('mfa_webauthn_credential').select('device_id').where('credential_id', '=', credentialId).executeTakeFirst();
    },
    /** The credential of one of the user's devices, locked until the transaction ends. */
    lockForDevice(userId: string, deviceId: string) {
      return db
        .selectFrom('mfa_webauthn_credential as c')
        .innerJoin('mfa_device as d', 'd.id', 'c.device_id')
        .selectAll('c')
        .where('d.user_id', '=', userId)
        .where('c.device_id', '=', deviceId)
        .forUpdate()
        .executeTakeFirst();
    },
    insert(values: Insertable<MfaWebauthnCredentialTable>) {
      return db.insertInto('mfa_webauthn_credential').values(values).execute();
    },
    /** Moves the counter from `from` to `to`: false when another assertion moved it first. */
    async advanceCounter(deviceId: string, from: number, to: number): Promise<boolean> {
      const res = await db
        .updateTable('mfa_webauthn_credential')
        .set({ sign_count: to })
        .where('device_id', '=', deviceId)
        .where('sign_count', '=', from)
        .executeTakeFirst();
      return res.numUpdatedRows === 1n;
    },
    /** AAGUIDs of the user's credentials by device id (the device list names the model). */
    async aaguidsOf(userId: string): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('mfa_webauthn_credential as c')
        .innerJoin('mfa_device as d', 'd.id', 'c.device_id')
        .select(['c.device_id', 'c.aaguid'])
        .where('d.user_id', '=', userId)
        .execute();
      return new Map(rows.map((r) => [r.device_id, r.aaguid]));
    },
  };
}
