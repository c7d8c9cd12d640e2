import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { deviceSecretAad } from '../mfa/builtin/builtin-mapping.js';
import { totpSecretOf } from '../mfa/common/otp.js';
import type { SecretBox } from '../lib/secret-box.js';
import { DEMO_STAFF } from './seed.js';

/**
 * The demo staff's authenticator apps on the builtin provider. The builtin provider cannot reach a
 * phone, so a demo phone is seeded there as the authenticator app on that phone (same name), with a
 * secret derived from a published label, the account and the device name: like the demo D100 tokens'
 * seeds, it protects nothing, and a person trying the portal (`npm run demo:codes`) or an end-to-end
 * test can compute its codes. Embedded mode with the builtin provider only.
 */

const DEMO_AUTHENTICATOR_LABEL = 'mfa-portal demo authenticator app (not a secret)';

/** The Base32 TOTP secret of a demo authenticator app. */
export function demoAuthenticatorSecret(username: string, deviceName: string): string {
  return totpSecretOf(createHmac('sha1', DEMO_AUTHENTICATOR_LABEL).update(`${username.toLowerCase()}\n${deviceName}`).digest());
}

/** The demo authenticator apps, as (account, device name): the demo staff's phones. */
export const DEMO_AUTHENTICATORS: ReadonlyArray<{ username: string; name: string }> = DEMO_STAFF.flatMap((member) =>
  (member.mfa?.devices ?? []).filter((d) => d.kind === 'phone').map((d) => ({ username: member.email.toLowerCase(), name: d.name })),
);

/**
 * Gives the demo authenticator apps the seed wrote (without a secret: the seed has no key) their
 * sealed demo secret. Idempotent: only devices of demo staff still without a secret are touched.
 */
export async function seedDemoAuthenticatorSecrets(db: Kysely<Database>, box: SecretBox): Promise<void> {
  const usernames = [...new Set(DEMO_AUTHENTICATORS.map((a) => a.username))];
  if (usernames.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const waiting = await trx
      .selectFrom('mfa_device as d')
      .innerJoin('mfa_user as u', 'u.id', 'd.user_id')
      .select(['d.id', 'd.name', 'u.username'])
      .where('d.kind', '=', 'authenticator')
      .where('d.secret_sealed', 'is', null)
      .where('u.username', 'in', usernames)
      .execute();
    for (const device of waiting) {
      const secret = demoAuthenticatorSecret(device.username, device.name);
      await trx
        .updateTable('mfa_device')
        .set({ secret_sealed: box.seal(secret, deviceSecretAad(device.id)) })
        .where('id', '=', device.id)
        .where('secret_sealed', 'is', null)
        .execute();
    }
  });
}
