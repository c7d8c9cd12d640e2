import { sql, type Kysely } from 'kysely';

/**
 * The change feed of what the API caches per user: each instance keeps a signed-in user's
 * MFA data and session revocation in memory, and must hear at once when any instance, job or script
 * changes them. A statement-level trigger on each table those reads come from sends, on commit, one
 * PostgreSQL notification on `portal_user_changes` naming the users the statement touched (their
 * lower-case sign-in names, one per line; `*` when there are too many for one notification). A rolled
 * back change sends nothing; one statement over many rows sends one notification, not one per row.
 *
 * Transition tables allow one event per trigger: inserts and updates report their new rows, deletes and
 * updates their old ones (a renamed user is invalidated under both names).
 */
export const CHANGE_CHANNEL = 'portal_user_changes';

// table -> how its rows name their user
const TABLES = [
  ['mfa_user', 'username'],
  ['mfa_device', 'user_id'],
  ['mfa_bypass_code', 'user_id'],
  ['mfa_webauthn_credential', 'device_id'],
  ['session_revocation', 'upn'],
] as const;
const TRIGGERS = [
  ['ins', 'insert', 'new'],
  ['upd_new', 'update', 'new'],
  ['upd_old', 'update', 'old'],
  ['del', 'delete', 'old'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function portal_notify_user_changes() returns trigger language plpgsql as $fn$
    declare
      names text;
    begin
      if tg_argv[0] = 'username' then
        select string_agg(distinct lower(r.username), E'\n') into names from changed_rows r;
      elsif tg_argv[0] = 'upn' then
        select string_agg(distinct lower(r.upn), E'\n') into names from changed_rows r;
      elsif tg_argv[0] = 'user_id' then
        select string_agg(distinct lower(u.username), E'\n') into names
          from changed_rows r join mfa_user u on u.id = r.user_id;
      else
        select string_agg(distinct lower(u.username), E'\n') into names
          from changed_rows r join mfa_device d on d.id = r.device_id join mfa_user u on u.id = d.user_id;
      end if;
      -- Rows whose user is gone with the same statement (a cascade) are named by that user's own trigger.
      if names is not null then
        perform pg_notify('${sql.raw(CHANGE_CHANNEL)}', case when octet_length(names) > 7000 then '*' else names end);
      end if;
      return null;
    end
    $fn$`.execute(db);
  for (const [table, key] of TABLES) {
    for (const [suffix, event, side] of TRIGGERS) {
      await sql`
        create trigger ${sql.raw(`${table}_changes_${suffix}`)}
        after ${sql.raw(event)} on ${sql.table(table)}
        referencing ${sql.raw(side)} table as changed_rows
        for each statement execute function portal_notify_user_changes(${sql.lit(key)})`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table] of TABLES) {
    for (const [suffix] of TRIGGERS) await sql`drop trigger ${sql.raw(`${table}_changes_${suffix}`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function portal_notify_user_changes()`.execute(db);
}
