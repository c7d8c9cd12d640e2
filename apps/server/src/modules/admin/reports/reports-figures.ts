import { sql, type RawBuilder } from 'kysely';
import { heldByUnits } from '../../../db/admin-unit-members.js';

/**
 * The whole-organisation figures of the reports as one statement (the reports repository runs it):
 * staff in the portal's directory, those with at least one device, by kind, and with bypass codes in
 * force, plus any columns the caller reads at the same moment.
 */

export type Count = string | number;
interface FiguresRow {
  staff: Count;
  covered: Count;
  authenticator: Count;
  phone: Count;
  hardware_token: Count;
  passkey: Count;
  bypass_codes: Count;
  locked?: Count;
  stale_devices?: Count;
  codes_in_force?: Count;
  code_holders?: Count;
}

/**
 * The whole-organisation figures, with `extra` columns (scalar subqueries) read in the same statement;
 * `within`: of the people of these administrative units only (their devices and codes only, too).
 */
export function figuresStatement(now: Date, extra: RawBuilder<unknown> | null, within: readonly string[] | null = null) {
  const part = (upn: RawBuilder<unknown>, glue: 'where' | 'and') => (within ? sql`${sql.raw(glue)} ${heldByUnits(upn, within)}` : sql``);
  return sql<FiguresRow>`
    with dev as (
      select lower(u.username) as upn,
             bool_or(d.kind = 'authenticator') as authenticator,
             bool_or(d.kind = 'phone') as phone,
             bool_or(d.kind = 'hardware_token') as hardware_token,
             bool_or(d.kind in ('passkey', 'security_key')) as passkey
      from mfa_device d join mfa_user u on u.id = d.user_id
      ${part(sql`lower(u.username)`, 'where')}
      group by u.id
    ), codes as (
      select distinct lower(u.username) as upn
      from mfa_bypass_code c join mfa_user u on u.id = c.user_id
      where c.revoked_at is null and c.uses_left > 0 and c.expires_at > ${now} ${part(sql`lower(u.username)`, 'and')}
    )
    select count(*) as staff,
           count(dev.upn) as covered,
           count(*) filter (where dev.authenticator) as authenticator,
           count(*) filter (where dev.phone) as phone,
           count(*) filter (where dev.hardware_token) as hardware_token,
           count(*) filter (where dev.passkey) as passkey,
           count(codes.upn) as bypass_codes${extra ? sql`, ${extra}` : sql``}
    from directory_user s
    left join dev on dev.upn = s.upn
    left join codes on codes.upn = s.upn
    ${part(sql`s.upn`, 'where')}`;
}

export const toFigures = (row: FiguresRow) => ({
  staff: Number(row.staff),
  covered: Number(row.covered),
  byKind: {
    authenticator: Number(row.authenticator),
    phone: Number(row.phone),
    hardware_token: Number(row.hardware_token),
    passkey: Number(row.passkey),
    bypass_codes: Number(row.bypass_codes),
  },
});
