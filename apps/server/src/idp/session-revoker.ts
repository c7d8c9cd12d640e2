import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** What the embedded identity provider keeps for a signed-in account: removing these signs it out everywhere. */
const SIGNED_IN_MODELS = ['Session', 'Grant', 'RefreshToken', 'AccessToken', 'AuthorizationCode', 'BackchannelAuthenticationRequest'];

/**
 * Signs an account out of the embedded identity provider everywhere: its sessions, grants, refresh and
 * access tokens and unused codes are deleted from the adapter's table (oidc_payload), so no browser
 * stays signed in and no refresh token renews. Answers how many records were removed.
 */
export function createIdpSessionRevoker(db: Kysely<Database>) {
  return {
    async revokeAll(upn: string): Promise<number> {
      const accounts = await db
        .selectFrom('idp_account')
        .select('id')
        .where(sql<string>`lower(username)`, '=', upn.trim().toLowerCase())
        .execute();
      if (accounts.length === 0) return 0;
      const ids = accounts.map((a) => String(a.id));
      const result = await db
        .deleteFrom('oidc_payload')
        .where('model', 'in', SIGNED_IN_MODELS)
        .where(sql<string>`payload->>'accountId'`, 'in', ids)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
