import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Forgets what the portal holds about a removed account's sessions (its step-ups and the pushes bound
 * to it), in the caller's transaction: every adapter's `lifecycle.remove` does this.
 */
export async function forgetSessionState(tx: Kysely<Database>, username: string): Promise<void> {
  const upn = username.toLowerCase();
  await tx
    .deleteFrom('step_up')
    .where(sql<boolean>`lower(upn) = ${upn}`)
    .execute();
  await tx
    .deleteFrom('push_transaction')
    .where(sql<boolean>`lower(upn) = ${upn}`)
    .execute();
}
