import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { isUserText } from '@mfa-portal/shared';
import type { Database } from '../db/schema.js';

/**
 * oidc-provider's storage on the `oidc_payload` table: sessions, interactions, grants, codes, refresh
 * tokens... one row per (model, id). Expired rows are invisible to `find*` and removed by `sweep`.
 * Queries use only `db` (never a transaction), so they are safe on PGlite, which serialises everything.
 */

/** Rows stay this long after expiry before the sweep removes them (diagnostics, clock skew). */
const SWEEP_GRACE_MS = 60 * 60 * 1000;

const epochSeconds = (d: Date) => Math.floor(d.getTime() / 1000);

export function createAdapterClass(db: Kysely<Database>, now: () => Date = () => new Date()) {
  return class KyselyOidcAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const expiresAt = typeof expiresIn === 'number' && expiresIn > 0 ? new Date(now().getTime() + expiresIn * 1000) : null;
      const row = {
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        expires_at: expiresAt,
      };
      await db
        .insertInto('oidc_payload')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['model', 'id']).doUpdateSet({
            payload: row.payload,
            grant_id: row.grant_id,
            user_code: row.user_code,
            uid: row.uid,
            expires_at: row.expires_at,
          }),
        )
        .execute();
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('id', id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('uid', uid);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await db.updateTable('oidc_payload').set({ consumed_at: now() }).where('model', '=', this.model).where('id', '=', id).execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('oidc_payload').where('model', '=', this.model).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oidc_payload').where('model', '=', this.model).where('grant_id', '=', grantId).execute();
    }

    private async findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      // A value that cannot be stored (NUL, unpaired surrogate, control character) cannot match.
      if (typeof value !== 'string' || !isUserText(value)) return undefined;
      const row = await db
        .selectFrom('oidc_payload')
        .select(['payload', 'consumed_at'])
        .where('model', '=', this.model)
        .where(column, '=', value)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now())]))
        .executeTakeFirst();
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumed_at ? { ...payload, consumed: epochSeconds(row.consumed_at) } : payload;
    }
  };
}

/** Deletes rows that expired more than an hour ago; returns how many. */
export async function sweepExpiredPayloads(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('oidc_payload')
    .where('expires_at', '<', new Date(now.getTime() - SWEEP_GRACE_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
