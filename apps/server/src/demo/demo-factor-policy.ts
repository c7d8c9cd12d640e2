import type { Transaction } from 'kysely';
import type { FactorPolicyRule } from '@mfa-portal/shared';
import type { Database } from '../db/schema.js';

/**
 * The demo groups' own factor policies (seeded once, with the demo groups):
 * - "Contractors" (victor@): security keys only, to add and to use, at most two;
 * - "Finance" (wendy@): passkeys and security keys to add; those, authenticator apps and bypass codes to use
 *   (so wendy keeps signing in with her app while being offered only a passkey or security key to add).
 * Everyone else keeps the organisation's policy, which allows every kind until an administrator changes it.
 */
export const DEMO_FACTOR_POLICIES: ReadonlyArray<{ group: string; rule: FactorPolicyRule }> = [
  {
    group: 'Contractors',
    rule: { enrol: ['security_key'], use: ['security_key'], requirePhishingResistant: false, maxPerKind: { security_key: 2 } },
  },
  {
    group: 'Finance',
    rule: {
      enrol: ['passkey', 'security_key'],
      use: ['passkey', 'security_key', 'authenticator_app', 'bypass_codes'],
      requirePhishingResistant: false,
      maxPerKind: {},
    },
  },
];

/** Writes the demo policies for the demo groups just created, inside the seed's transaction. */
export async function seedDemoFactorPolicies(trx: Transaction<Database>): Promise<void> {
  for (const { group, rule } of DEMO_FACTOR_POLICIES) {
    const found = await trx.selectFrom('scim_group').select('id').where('display_name', '=', group).executeTakeFirst();
    if (!found) continue;
    await trx
      .insertInto('factor_policy_group')
      .values({
        group_id: found.id,
        enrol: rule.enrol,
        use: rule.use,
        require_phishing_resistant: rule.requirePhishingResistant,
        max_per_kind: JSON.stringify(rule.maxPerKind),
        updated_by: 'demo data',
      })
      .onConflict((oc) => oc.column('group_id').doNothing())
      .execute();
  }
}
