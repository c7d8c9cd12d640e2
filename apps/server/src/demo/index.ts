import type { Kysely } from 'kysely';
import type { RoleNames } from '@mfa-portal/shared';
import type { Database } from '../db/schema.js';
import type { SecretBox } from '../lib/secret-box.js';
import { seedDemoAuthenticatorSecrets } from './demo-authenticators.js';
import { seedDemoHardwareTokens } from './demo-tokens.js';
import { seedDemoStaff } from './seed.js';

/**
 * The demo data of the embedded mode, in one go: the demo staff (first start only), then what the MFA
 * provider's own store needs of it. `builtinStore` is the builtin store's key when that store is the
 * provider (its demo Duo D100 tokens, and the secrets of the demo authenticator apps, which the staff
 * seed writes without one); null otherwise. Every step is idempotent: run it at every start.
 */
export async function seedDemo(
  db: Kysely<Database>,
  opts: { password: string; roles?: Pick<RoleNames, 'helpdesk' | 'solutionAdmin'>; builtinStore: SecretBox | null },
): Promise<void> {
  await seedDemoStaff(db, { password: opts.password, ...(opts.roles ? { roles: opts.roles } : {}) });
  if (!opts.builtinStore) return;
  await seedDemoHardwareTokens(db, opts.builtinStore);
  await seedDemoAuthenticatorSecrets(db, opts.builtinStore);
}
