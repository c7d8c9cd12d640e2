import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { CampaignProgress, CampaignRequirement, CampaignTargetKind } from '@mfa-portal/shared';
import { unitMembersSql } from '../../db/admin-unit-members.js';
import type { Database, EnrolmentCampaignMemberTable, EnrolmentCampaignTable } from '../../db/schema.js';

/**
 * SQL of the enrolment campaigns (migration 0026); no rules here. The people of a target are read as
 * the directory is now (SCIM group members, an administrative unit's people), limited to the portal's
 * directory: those the portal can mail and show a banner to.
 */

export type CampaignRow = Selectable<EnrolmentCampaignTable>;
export type MemberRow = Selectable<EnrolmentCampaignMemberTable>;

export interface NewCampaign {
  targetKind: CampaignTargetKind;
  targetId: string;
  targetName: string;
  requirement: CampaignRequirement;
  deadline: Date;
  reminderIntervalDays: number;
  maxReminders: number;
  maxSnoozes: number;
  snoozeDays: number;
  startedBy: string;
  startedAt: Date;
}

type Count = string | number;
const DAY_MS = 86_400_000;

/** The sign-in names (lower case) of a target's people who are in the portal's directory. */
function targetMembersSql(kind: CampaignTargetKind, id: string): RawBuilder<{ upn: string }> {
  const members =
    kind === 'group'
      ? sql`select lower(su.user_name) as upn from scim_group_member gm join scim_user su on su.id = gm.user_id where gm.group_id = ${id}::uuid`
      : sql`select upn from (${unitMembersSql([id])}) u`;
  return sql<{ upn: string }>`select d.upn from directory_user d where d.upn in (${members})`;
}

const targetIdOf = (c: Pick<CampaignRow, 'target_kind' | 'target_group_id' | 'target_unit_id'>) =>
  c.target_kind === 'group' ? c.target_group_id : c.target_unit_id;

export function campaignsRepository(db: Kysely<Database>) {
  return {
    /** A target's name, or null when no such group or unit exists. */
    async targetName(kind: CampaignTargetKind, id: string): Promise<string | null> {
      const row =
        kind === 'group'
          ? await db.selectFrom('scim_group').select('display_name as name').where('id', '=', id).executeTakeFirst()
          : await db.selectFrom('admin_unit').select('name').where('id', '=', id).executeTakeFirst();
      return row?.name ?? null;
    },

    async countTargetMembers(kind: CampaignTargetKind, id: string): Promise<number> {
      const r = await sql<{ n: Count }>`select count(*) as n from (${targetMembersSql(kind, id)}) m`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    },

    /** Inserts a campaign (an active one on the same target violates a unique index: 23505). */
    async insert(c: NewCampaign): Promise<string> {
      const row = await db
        .insertInto('enrolment_campaign')
        .values({
          target_kind: c.targetKind,
          target_group_id: c.targetKind === 'group' ? c.targetId : null,
          target_unit_id: c.targetKind === 'unit' ? c.targetId : null,
          target_name: c.targetName,
          requirement: c.requirement,
          deadline: c.deadline,
          reminder_interval_days: c.reminderIntervalDays,
          max_reminders: c.maxReminders,
          max_snoozes: c.maxSnoozes,
          snooze_days: c.snoozeDays,
          started_by: c.startedBy,
          started_at: c.startedAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    find(id: string): Promise<CampaignRow | undefined> {
      return db.selectFrom('enrolment_campaign').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The active campaigns, then the ended ones; the latest first. */
    list(limit: number): Promise<CampaignRow[]> {
      return db
        .selectFrom('enrolment_campaign')
        .selectAll()
        .orderBy(sql`state = 'active'`, 'desc')
        .orderBy('started_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    active(): Promise<CampaignRow[]> {
      return db.selectFrom('enrolment_campaign').selectAll().where('state', '=', 'active').orderBy('started_at').execute();
    },

    async end(id: string, by: string, at: Date): Promise<boolean> {
      const r = await db
        .updateTable('enrolment_campaign')
        .set({ state: 'ended', ended_by: by, ended_at: at })
        .where('id', '=', id)
        .where('state', '=', 'active')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /**
     * Brings the campaign's people in step with its target: newcomers are added, people who left are
     * removed (a target that no longer exists holds nobody). Returns how many were added.
     */
    async syncMembers(c: CampaignRow, now: Date): Promise<number> {
      const targetId = targetIdOf(c);
      if (!targetId) {
        await db.deleteFrom('enrolment_campaign_member').where('campaign_id', '=', c.id).execute();
        return 0;
      }
      const members = targetMembersSql(c.target_kind, targetId);
      await db
        .deleteFrom('enrolment_campaign_member')
        .where('campaign_id', '=', c.id)
        .where(sql<boolean>`upn not in (${members})`)
        .execute();
      const r = await sql`insert into enrolment_campaign_member (campaign_id, upn, added_at)
        select ${c.id}::uuid, m.upn, ${now} from (${members}) m
        on conflict do nothing`.execute(db);
      return Number(r.numAffectedRows ?? 0);
    },

    /**
     * People due an e-mail now, oldest first: never mailed (before the deadline), or mailed at least
     * the interval ago with reminders left (before the deadline). Those who met the requirement are not.
     */
    dueForMail(c: CampaignRow, now: Date, limit: number): Promise<MemberRow[]> {
      if (new Date(c.deadline) <= now) return Promise.resolve([]);
      const remindBefore = new Date(now.getTime() - c.reminder_interval_days * DAY_MS);
      return db
        .selectFrom('enrolment_campaign_member')
        .selectAll()
        .where('campaign_id', '=', c.id)
        .where('enrolled_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('mailed_at', 'is', null),
            eb.and([eb('reminders_sent', '<', c.max_reminders), eb('last_mailed_at', '<=', remindBefore)]),
          ]),
        )
        .orderBy('last_mailed_at', (ob) => ob.asc().nullsFirst())
        .orderBy('upn')
        .limit(limit)
        .execute();
    },

    /**
     * Records an e-mail to each of `upns` still due one (the same condition as `dueForMail`, checked
     * again under the row lock, so two instances never mail one person twice); returns those claimed,
     * each with whether it was their first e-mail.
     */
    async claimMail(c: CampaignRow, upns: readonly string[], now: Date): Promise<{ upn: string; first: boolean }[]> {
      if (upns.length === 0) return [];
      const remindBefore = new Date(now.getTime() - c.reminder_interval_days * DAY_MS);
      const rows = await db
        .updateTable('enrolment_campaign_member')
        .set({
          mailed_at: sql`coalesce(mailed_at, ${now})`,
          last_mailed_at: now,
          reminders_sent: sql`reminders_sent + (case when mailed_at is null then 0 else 1 end)`,
        })
        .where('campaign_id', '=', c.id)
        .where('upn', 'in', [...upns])
        .where('enrolled_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('mailed_at', 'is', null),
            eb.and([eb('reminders_sent', '<', c.max_reminders), eb('last_mailed_at', '<=', remindBefore)]),
          ]),
        )
        .returning(['upn', 'reminders_sent'])
        .execute();
      return rows.map((r) => ({ upn: r.upn, first: r.reminders_sent === 0 }));
    },

    /** People not yet seen to meet the requirement, least recently checked first (none checked after `checkedBefore`). */
    pendingToCheck(campaignId: string, checkedBefore: Date, limit: number): Promise<string[]> {
      return db
        .selectFrom('enrolment_campaign_member')
        .select('upn')
        .where('campaign_id', '=', campaignId)
        .where('enrolled_at', 'is', null)
        .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', checkedBefore)]))
        .orderBy('checked_at', (ob) => ob.asc().nullsFirst())
        .orderBy('upn')
        .limit(limit)
        .execute()
        .then((rows) => rows.map((r) => r.upn));
    },

    /** Records a check of `checked`: those in `meeting` are enrolled from now (once). */
    async recordCheck(campaignId: string, checked: readonly string[], meeting: ReadonlySet<string>, now: Date): Promise<void> {
      if (checked.length === 0) return;
      const met = checked.filter((u) => meeting.has(u));
      if (met.length > 0) {
        await db
          .updateTable('enrolment_campaign_member')
          .set({ enrolled_at: now })
          .where('campaign_id', '=', campaignId)
          .where('upn', 'in', met)
          .where('enrolled_at', 'is', null)
          .execute();
      }
      await db
        .updateTable('enrolment_campaign_member')
        .set({ checked_at: now })
        .where('campaign_id', '=', campaignId)
        .where('upn', 'in', [...checked])
        .execute();
    },

    /** A person's rows in active campaigns where they have not met the requirement, soonest deadline first. */
    pendingFor(upn: string): Promise<(MemberRow & Pick<CampaignRow, 'requirement' | 'deadline' | 'max_snoozes' | 'snooze_days'>)[]> {
      return db
        .selectFrom('enrolment_campaign_member as m')
        .innerJoin('enrolment_campaign as c', 'c.id', 'm.campaign_id')
        .selectAll('m')
        .select(['c.requirement', 'c.deadline', 'c.max_snoozes', 'c.snooze_days'])
        .where('m.upn', '=', upn)
        .where('c.state', '=', 'active')
        .where('m.enrolled_at', 'is', null)
        .orderBy('c.deadline')
        .orderBy('c.id')
        .execute();
    },

    /** One more snooze, until `until`, while some are left; false when none was. */
    async snooze(campaignId: string, upn: string, maxSnoozes: number, until: Date): Promise<number | null> {
      const row = await db
        .updateTable('enrolment_campaign_member')
        .set({ snoozes_used: sql`snoozes_used + 1`, snoozed_until: until })
        .where('campaign_id', '=', campaignId)
        .where('upn', '=', upn)
        .where('enrolled_at', 'is', null)
        .where('snoozes_used', '<', maxSnoozes)
        .returning('snoozes_used')
        .executeTakeFirst();
      return row ? row.snoozes_used : null;
    },

    /** Where each person of these campaigns stands now, each counted once (see CAMPAIGN_PROGRESS_KEYS). */
    async progress(ids: readonly string[], now: Date): Promise<Map<string, CampaignProgress>> {
      const out = new Map<string, CampaignProgress>();
      if (ids.length === 0) return out;
      const r = await sql<Record<keyof CampaignProgress | 'campaign_id', Count>>`
        with s as (
          select m.campaign_id,
                 case
                   when m.enrolled_at is not null then 'enrolled'
                   when c.deadline <= ${now} then 'overdue'
                   when m.snoozed_until > ${now} then 'snoozed'
                   when m.reminders_sent > 0 then 'reminded'
                   when m.mailed_at is not null then 'mailed'
                   else 'waiting'
                 end as stage
          from enrolment_campaign_member m join enrolment_campaign c on c.id = m.campaign_id
          where m.campaign_id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})
        )
        select campaign_id, count(*) as "inScope",
               count(*) filter (where stage = 'enrolled') as enrolled,
               count(*) filter (where stage = 'overdue') as overdue,
               count(*) filter (where stage = 'snoozed') as snoozed,
               count(*) filter (where stage = 'reminded') as reminded,
               count(*) filter (where stage = 'mailed') as mailed,
               count(*) filter (where stage = 'waiting') as waiting
        from s group by campaign_id`.execute(db);
      for (const row of r.rows) {
        out.set(String(row.campaign_id), {
          inScope: Number(row.inScope),
          enrolled: Number(row.enrolled),
          overdue: Number(row.overdue),
          snoozed: Number(row.snoozed),
          reminded: Number(row.reminded),
          mailed: Number(row.mailed),
          waiting: Number(row.waiting),
        });
      }
      return out;
    },
  };
}

export type CampaignsRepository = ReturnType<typeof campaignsRepository>;
export { targetIdOf };
