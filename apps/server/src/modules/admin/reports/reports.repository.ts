import { sql, type Kysely, type RawBuilder } from 'kysely';
import { heldByUnits } from '../../../db/admin-unit-members.js';
import type { Database } from '../../../db/schema.js';
import { figuresStatement, toFigures, type Count } from './reports-figures.js';

/**
 * SQL of the administrators' reports. Every list is read in the order of an index
 * (migration 0015, or the primary and lower(username) indexes) and paged by keyset, so a page costs
 * the same at 100 or 100,000 staff. The coverage figures are a whole-organisation aggregate (about
 * 300 ms at 100,000 staff): the snapshot job runs it every hour, and a request only for an
 * organisation small enough to count it cheaply (see the reports service).
 */

/** Keyset positions: the last row of the page before. */
export interface TimeCursor {
  at: Date;
  id: string;
}

export interface SnapshotRow {
  day: string;
  provider: string;
  staff: number;
  covered: number | null;
  byKind: Record<string, number> | null;
  takenAt: Date;
}

const dayOf = (v: Date | string): string => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
const toDate = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
const iso = (v: Date | string | null): string | null => (v === null ? null : toDate(v).toISOString());

/**
 * `within`: the reports of the people of these administrative units only (a helpdesk member limited
 * to them). A part of the organisation keeps no snapshots: its figures are always counted now.
 */
export function reportsRepository(db: Kysely<Database>, opts: { within?: readonly string[] } = {}) {
  const within = opts.within ?? null;
  /** Keeps the rows of people the units hold, by a lower-case sign-in name; everyone without `within`. */
  const held = (upn: RawBuilder<unknown>) => (within ? heldByUnits(upn, within) : sql<boolean>`true`);
  const username = sql`lower(u.username)`;
  return {
    /**
     * The builtin store's figures now: staff (the portal's directory), those with at least one device,
     * and by kind (passkeys and security keys together; bypass codes in force). One statement.
     */
    async builtinFigures(now: Date) {
      const r = await figuresStatement(now, null, within).execute(db);
      return toFigures(r.rows[0]!);
    },

    /**
     * The figures now and how many rows each list holds, in one statement (one moment): counted as the
     * lists are read (`withoutFactor`, `lockedBuiltin`, `staleDevices` before `staleBefore`,
     * `bypassCodesInForce`), so the two agree. The list counts go through the lists' own indexes.
     */
    async builtinFiguresWithTotals(now: Date, staleBefore: Date) {
      const totals = sql`(select count(*) from mfa_user u
            where u.status in ('disabled', 'locked_out')
              and (u.status = 'disabled' or u.locked_until is null or u.locked_until > ${now}) and ${held(username)}) as locked,
          (select count(*) from mfa_device d join mfa_user u on u.id = d.user_id
            where coalesce(d.last_used_at, d.created_at) < ${staleBefore} and ${held(username)}) as stale_devices,
          (select count(*) from mfa_bypass_code c join mfa_user u on u.id = c.user_id
            where c.revoked_at is null and c.uses_left > 0 and c.expires_at > ${now} and ${held(username)}) as codes_in_force,
          (select count(distinct c.user_id) from mfa_bypass_code c join mfa_user u on u.id = c.user_id
            where c.revoked_at is null and c.uses_left > 0 and c.expires_at > ${now} and ${held(username)}) as code_holders`;
      const r = await figuresStatement(now, totals, within).execute(db);
      const row = r.rows[0]!;
      return {
        ...toFigures(row),
        totals: {
          'without-factor': Number(row.staff) - Number(row.covered),
          locked: Number(row.locked),
          'stale-devices': Number(row.stale_devices),
          'bypass-codes': Number(row.codes_in_force),
          bypassCodeHolders: Number(row.code_holders),
        },
      };
    },

    /** The directory mirror's figures (Duo): staff, and those the provider has disabled or locked out as last synced (`lockedFromDirectory`). */
    async directoryFigures(): Promise<{ staff: number; locked: number }> {
      const r = await db
        .selectFrom('directory_user')
        .select((eb) => [
          eb.fn.countAll<Count>().as('staff'),
          sql<Count>`count(*) filter (where mfa_status in ('disabled', 'locked_out'))`.as('locked'),
        ])
        .$if(within !== null, (q) => q.where(held(sql.ref('upn'))))
        .executeTakeFirstOrThrow();
      return { staff: Number(r.staff), locked: Number(r.locked) };
    },

    /** How many staff the portal's directory holds (what Duo's figures can say). */
    async staffCount(): Promise<number> {
      const r = await db
        .selectFrom('directory_user')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .$if(within !== null, (q) => q.where(held(sql.ref('upn'))))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    async saveSnapshot(s: Omit<SnapshotRow, 'takenAt'> & { takenAt: Date }): Promise<void> {
      if (within) return;
      const values = {
        day: s.day,
        provider: s.provider,
        staff: s.staff,
        covered: s.covered,
        by_kind: s.byKind ? JSON.stringify(s.byKind) : null,
        taken_at: s.takenAt,
      };
      await db
        .insertInto('report_snapshot')
        .values(values)
        .onConflict((oc) => oc.column('day').doUpdateSet({ ...values, day: undefined } as never))
        .execute();
    },

    /** Snapshots of the days from..to (inclusive), by day, through the primary key. */
    async snapshots(from: string, to: string): Promise<SnapshotRow[]> {
      if (within) return [];
      const rows = await db
        .selectFrom('report_snapshot')
        .selectAll()
        .where('day', '>=', from)
        .where('day', '<=', to)
        .orderBy('day')
        .execute();
      return rows.map((r) => ({
        day: dayOf(r.day),
        provider: r.provider,
        staff: r.staff,
        covered: r.covered,
        byKind: r.by_kind,
        takenAt: toDate(r.taken_at),
      }));
    },

    async firstSnapshotDay(): Promise<string | null> {
      if (within) return null;
      const r = await db.selectFrom('report_snapshot').select('day').orderBy('day').limit(1).executeTakeFirst();
      return r ? dayOf(r.day) : null;
    },

    /** Staff in the directory without any device (builtin), by sign-in name. */
    async withoutFactor(after: string | null, limit: number) {
      let q = db
        .selectFrom('directory_user as s')
        .leftJoin('mfa_user as u', (j) => j.on(sql`lower(u.username)`, '=', sql.ref('s.upn')))
        .select(['s.upn', 's.display_name', 's.last_seen_at', 'u.id as user_id', 'u.status'])
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('mfa_device as d')
                .select(sql`1`.as('one'))
                .whereRef('d.user_id', '=', 'u.id'),
            ),
          ),
        );
      if (after !== null) q = q.where('s.upn', '>', after);
      if (within) q = q.where(held(sql.ref('s.upn')));
      const rows = await q.orderBy('s.upn').limit(limit).execute();
      return rows.map((r) => ({
        upn: r.upn,
        displayName: r.display_name,
        provisioned: r.user_id !== null,
        status: r.status ?? null,
        lastSeenAt: iso(r.last_seen_at),
      }));
    },

    /** Builtin accounts disabled, or locked out (by an administrator, or by policy until a time still ahead). */
    async lockedBuiltin(after: string | null, limit: number, now: Date) {
      let q = db
        .selectFrom('mfa_user as u')
        .leftJoin('directory_user as s', (j) => j.on('s.upn', '=', sql<string>`lower(u.username)`))
        .select(['u.username', 'u.real_name', 'u.status', 'u.status_reason', 'u.locked_until', 'u.updated_at', 's.display_name'])
        // Literals, not parameters: the partial index's predicate must be provable from the query.
        .where(sql<boolean>`u.status in ('disabled', 'locked_out')`)
        .where((eb) => eb.or([eb('u.status', '=', 'disabled'), eb('u.locked_until', 'is', null), eb('u.locked_until', '>', now)]));
      if (after !== null) q = q.where('u.username', '>', after);
      if (within) q = q.where(held(username));
      const rows = await q.orderBy('u.username').limit(limit).execute();
      return rows.map((r) => ({
        upn: r.username,
        displayName: r.display_name || r.real_name,
        status: r.status as 'disabled' | 'locked_out',
        reason: r.status_reason,
        lockedUntil: r.status === 'locked_out' ? iso(r.locked_until) : null,
        since: iso(r.updated_at),
      }));
    },

    /** Directory users whose status at the provider, as last synced (Duo), is disabled or locked out. */
    async lockedFromDirectory(after: string | null, limit: number) {
      let q = db
        .selectFrom('directory_user')
        .select(['upn', 'display_name', 'mfa_status', 'updated_at'])
        .where(sql<boolean>`mfa_status in ('disabled', 'locked_out')`);
      if (after !== null) q = q.where('upn', '>', after);
      if (within) q = q.where(held(sql.ref('upn')));
      const rows = await q.orderBy('upn').limit(limit).execute();
      return rows.map((r) => ({
        upn: r.upn,
        displayName: r.display_name,
        status: r.mfa_status as 'disabled' | 'locked_out',
        reason: null,
        lockedUntil: null,
        since: iso(r.updated_at),
      }));
    },

    /** Devices not used since `before` (never used: added before it), the longest unused first. */
    async staleDevices(before: Date, after: TimeCursor | null, limit: number) {
      const lastUse = sql<Date>`coalesce(d.last_used_at, d.created_at)`;
      let q = db
        .selectFrom('mfa_device as d')
        .innerJoin('mfa_user as u', 'u.id', 'd.user_id')
        .leftJoin('directory_user as s', (j) => j.on('s.upn', '=', sql<string>`lower(u.username)`))
        .select(['d.id', 'd.kind', 'd.name', 'd.created_at', 'd.last_used_at', 'u.username', 'u.real_name', 's.display_name'])
        .where(lastUse, '<', before);
      if (after !== null)
        q = q.where(sql`(coalesce(d.last_used_at, d.created_at), d.id)`, '>', sql`(${after.at}::timestamptz, ${after.id}::uuid)`);
      if (within) q = q.where(held(username));
      const rows = await q.orderBy(lastUse).orderBy('d.id').limit(limit).execute();
      return rows.map((r) => ({
        upn: r.username,
        displayName: r.display_name || r.real_name,
        deviceId: r.id,
        kind: r.kind,
        name: r.name,
        createdAt: toDate(r.created_at).toISOString(),
        lastUsedAt: iso(r.last_used_at),
        position: { at: toDate(r.last_used_at ?? r.created_at), id: r.id },
      }));
    },

    /** Bypass codes in force (not revoked, uses left, not expired), the soonest to expire first: metadata only. */
    async bypassCodesInForce(now: Date, after: TimeCursor | null, limit: number) {
      let q = db
        .selectFrom('mfa_bypass_code as c')
        .innerJoin('mfa_user as u', 'u.id', 'c.user_id')
        .leftJoin('directory_user as s', (j) => j.on('s.upn', '=', sql<string>`lower(u.username)`))
        .select(['c.id', 'c.created_by', 'c.created_at', 'c.expires_at', 'c.uses_left', 'u.username', 'u.real_name', 's.display_name'])
        .where('c.revoked_at', 'is', null)
        .where(sql<boolean>`c.uses_left > 0`)
        .where('c.expires_at', '>', now);
      if (after !== null) q = q.where(sql`(c.expires_at, c.id)`, '>', sql`(${after.at}::timestamptz, ${after.id}::uuid)`);
      if (within) q = q.where(held(username));
      const rows = await q.orderBy('c.expires_at').orderBy('c.id').limit(limit).execute();
      return rows.map((r) => ({
        upn: r.username,
        displayName: r.display_name || r.real_name,
        id: r.id,
        createdBy: r.created_by,
        createdAt: toDate(r.created_at).toISOString(),
        expiresAt: toDate(r.expires_at).toISOString(),
        usesLeft: r.uses_left,
        position: { at: toDate(r.expires_at), id: r.id },
      }));
    },
  };
}

export type ReportsRepository = ReturnType<typeof reportsRepository>;
