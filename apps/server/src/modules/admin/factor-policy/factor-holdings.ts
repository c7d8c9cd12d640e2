import { sql, type Kysely } from 'kysely';
import { factorKindOf, type FactorKind } from '@mfa-portal/shared';
import type { Database } from '../../../db/schema.js';
import type { MfaProvider } from '../../../mfa/port.js';
import type { Holding } from '../../factor-policy/resolve-policy.js';

/**
 * What factors each of many people holds (a device that can verify, by kind; live bypass codes): what a
 * policy preview weighs. With the builtin provider the portal's own store is read in a few statements
 * (as the reports read it); with another provider (Duo) each person is read through the MFA port, a few
 * at a time, since the portal holds none of their devices.
 */

export type HoldingsReader = (upns: readonly string[], now: Date) => Promise<Map<string, Holding>>;

/** Names per statement: a bounded list of parameters. */
const CHUNK = 500;

/**
 * The builtin store's holdings. A device counts when the store can verify it, as the builtin provider
 * reads its rows: a passkey or security key; an authenticator app with its secret; a hardware token
 * still tied to the inventory; a phone activated in the portal's own app (a phone record of any other
 * kind offers nothing there).
 */
export function builtinHoldings(db: Kysely<Database>): HoldingsReader {
  return async (upns, now) => {
    const out = new Map<string, Holding>();
    for (let i = 0; i < upns.length; i += CHUNK) {
      const names = sql.join(upns.slice(i, i + CHUNK).map((u) => sql`${u.toLowerCase()}`));
      const rows = await sql<{ upn: string; kind: FactorKind; n: string | number }>`
        select lower(u.username) as upn,
               case when d.kind = 'authenticator' then 'authenticator_app'
                    when d.kind = 'phone' and d.app = 'portal_authenticator' then 'portal_authenticator'
                    else d.kind end as kind,
               count(*) as n
        from mfa_device d join mfa_user u on u.id = d.user_id
        where lower(u.username) in (${names})
          and (d.kind in ('passkey', 'security_key')
               or (d.kind = 'authenticator' and d.secret_sealed is not null)
               or (d.kind = 'hardware_token' and d.hardware_token_id is not null)
               or (d.kind = 'phone' and d.app = 'portal_authenticator' and d.secret_sealed is not null))
        group by 1, 2
        union all
        select lower(u.username), 'bypass_codes', count(*)
        from mfa_bypass_code c join mfa_user u on u.id = c.user_id
        where lower(u.username) in (${names}) and c.revoked_at is null and c.uses_left > 0 and c.expires_at > ${now}
        group by 1`.execute(db);
      for (const r of rows.rows) {
        const holding = out.get(r.upn) ?? {};
        holding[r.kind] = (holding[r.kind] ?? 0) + Number(r.n);
        out.set(r.upn, holding);
      }
    }
    return out;
  };
}

/** People read one by one through the MFA port (a provider whose devices the portal does not hold). */
export function providerHoldings(mfa: MfaProvider, concurrency = 4): HoldingsReader {
  return async (upns, now) => {
    const out = new Map<string, Holding>();
    let next = 0;
    const worker = async () => {
      while (next < upns.length) {
        const upn = upns[next++]!.toLowerCase();
        const account = await mfa.getAccount(upn, now);
        if (!account) continue;
        const [devices, codes] = await Promise.all([mfa.listDevices(upn), mfa.listBypassCodes(upn, { now })]);
        const holding: Holding = {};
        for (const d of devices) {
          if (d.capabilities.length === 0) continue;
          const kind = factorKindOf(d);
          holding[kind] = (holding[kind] ?? 0) + 1;
        }
        if (codes.length > 0) holding.bypass_codes = codes.length;
        out.set(upn, holding);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, upns.length) }, worker));
    return out;
  };
}
