import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * SQL of "who holds a device", as a campaign asks it of many people at once; no rules here. The
 * composition root picks the query that fits the MFA provider (see requirement-check.ts).
 */
export function deviceHoldersRepository(db: Kysely<Database>) {
  return {
    /** Of `upns`, those with at least one device in the portal's own MFA store (the builtin provider). */
    async builtin(upns: readonly string[]): Promise<Set<string>> {
      if (upns.length === 0) return new Set();
      const r = await sql<{ upn: string }>`select lower(u.username) as upn from mfa_user u
        where lower(u.username) in (${sql.join([...upns])})
          and exists (select 1 from mfa_device d where d.user_id = u.id)`.execute(db);
      return new Set(r.rows.map((row) => row.upn));
    },

    /** Of `upns`, those the MFA provider said have a device, as the directory last synced it (Duo). */
    async mirrored(upns: readonly string[]): Promise<Set<string>> {
      if (upns.length === 0) return new Set();
      const rows = await db
        .selectFrom('directory_user')
        .select('upn')
        .where('upn', 'in', [...upns])
        .where('mfa_enrolled', '=', true)
        .execute();
      return new Set(rows.map((row) => row.upn));
    },
  };
}
