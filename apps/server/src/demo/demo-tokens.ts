import { createHmac, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { SecretBox } from '../lib/secret-box.js';
import { tokenSeedAad } from '../mfa/builtin/builtin-mapping.js';

/**
 * Demo Duo D100 tokens for the embedded mode: an inventory to claim from, since nobody has a real
 * token at hand. Their seeds are derived from the serial with a published label, so a developer (or an
 * end-to-end test) can compute their codes with `demoTokenSeed` + `hotpCode`: they protect nothing.
 * Never seeded outside the embedded mode.
 *
 * `D100-0001` is the token the demo staff `bob@example.com` holds (his device of that serial is linked
 * to it); the others are available.
 */

export const DEMO_TOKEN_SERIALS = [
  'D100-0001',
  'D100-0002',
  'D100-0003',
  'D100-0004',
  'D100-0005',
  'D100-0006',
  'D100-0007',
  'D100-0016',
] as const;
const DEMO_SEED_LABEL = 'mfa-portal demo Duo D100 token (not a secret)';

/** The 20-byte HOTP seed of a demo token. */
export function demoTokenSeed(serial: string): Buffer {
  return createHmac('sha1', DEMO_SEED_LABEL).update(serial.toUpperCase()).digest();
}

/**
 * Adds the demo tokens that are missing (idempotent; concurrent starts are safe) and links existing
 * hardware-token devices of a demo serial that no inventory token backs yet (the demo staff seed
 * writes bob's device). Run after the demo staff are seeded.
 */
export async function seedDemoHardwareTokens(db: Kysely<Database>, box: SecretBox): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const serial of DEMO_TOKEN_SERIALS) {
      const id = randomUUID();
      await trx
        .insertInto('mfa_hardware_token')
        .values({ id, serial, token_type: 'Duo D100', seed_sealed: box.seal(demoTokenSeed(serial), tokenSeedAad(id)) })
        .onConflict((oc) => oc.expression(sql`upper(serial)`).doNothing())
        .execute();
    }
    const unlinked = await trx
      .selectFrom('mfa_device as d')
      .innerJoin('mfa_hardware_token as t', (join) => join.on(sql`upper(t.serial)`, '=', sql`upper(d.serial)`))
      .select(['d.id as device_id', 'd.user_id', 't.id as token_id'])
      .where('d.kind', '=', 'hardware_token')
      .where('d.hardware_token_id', 'is', null)
      .where('t.status', '=', 'available')
      .where(
        sql`upper(t.serial)`,
        'in',
        DEMO_TOKEN_SERIALS.map((s) => s.toUpperCase()),
      )
      .execute();
    for (const link of unlinked) {
      await trx
        .updateTable('mfa_hardware_token')
        .set({ status: 'assigned', user_id: link.user_id, assigned_at: new Date(), updated_at: new Date() })
        .where('id', '=', link.token_id)
        .execute();
      await trx.updateTable('mfa_device').set({ hardware_token_id: link.token_id }).where('id', '=', link.device_id).execute();
    }
  });
}
