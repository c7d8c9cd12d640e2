import { sql, type Kysely } from 'kysely';

/**
 * Enrolment campaigns: a Solution Administrator asks the people of a directory group or an
 * administrative unit who still lack a device (or the factor their policy requires) to add one by a
 * deadline. The portal e-mails each of them, reminds them a bounded number of times, and shows a banner
 * they may snooze a bounded number of times.
 *
 * - `enrolment_campaign`: the target (a group or a unit, named as it was when started, so an ended
 *   campaign still reads well after the group is gone), what counts as done, the deadline and the
 *   reminder and snooze settings. At most one active campaign per target.
 * - `enrolment_campaign_member`: one row per person in scope, with what was sent and when, the snoozes
 *   used, and when they were first seen to meet the requirement. The scheduler keeps the rows in step
 *   with the target's members; a person removed from the directory leaves with their rows.
 * - `directory_user.mfa_enrolled`: whether the MFA provider says the person has a device, as last synced
 *   (Duo's `is_enrolled`); what a campaign reads when the portal does not hold the devices itself.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('enrolment_campaign')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('target_kind', 'text', (c) => c.notNull().check(sql`target_kind in ('group', 'unit')`))
    .addColumn('target_group_id', 'uuid', (c) => c.references('scim_group.id').onDelete('set null'))
    .addColumn('target_unit_id', 'uuid', (c) => c.references('admin_unit.id').onDelete('set null'))
    .addColumn('target_name', 'text', (c) => c.notNull())
    .addColumn('requirement', 'text', (c) => c.notNull().check(sql`requirement in ('device', 'policy')`))
    .addColumn('deadline', 'timestamptz', (c) => c.notNull())
    .addColumn('reminder_interval_days', 'integer', (c) => c.notNull().check(sql`reminder_interval_days between 1 and 30`))
    .addColumn('max_reminders', 'integer', (c) => c.notNull().check(sql`max_reminders between 1 and 10`))
    .addColumn('max_snoozes', 'integer', (c) => c.notNull().check(sql`max_snoozes between 0 and 10`))
    .addColumn('snooze_days', 'integer', (c) => c.notNull().check(sql`snooze_days between 1 and 14`))
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('active')
        .check(sql`state in ('active', 'ended')`),
    )
    .addColumn('started_by', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_by', 'text')
    .addColumn('ended_at', 'timestamptz')
    .execute();
  // One active campaign per group or unit: two would mail the same people twice.
  await sql`create unique index enrolment_campaign_active_target_uq on enrolment_campaign
    (target_kind, coalesce(target_group_id, target_unit_id)) where state = 'active'`.execute(db);
  await sql`create index enrolment_campaign_started_idx on enrolment_campaign (started_at desc, id)`.execute(db);

  await db.schema
    .createTable('enrolment_campaign_member')
    .addColumn('campaign_id', 'uuid', (c) => c.notNull().references('enrolment_campaign.id').onDelete('cascade'))
    .addColumn('upn', 'text', (c) => c.notNull().references('directory_user.upn').onDelete('cascade').onUpdate('cascade'))
    .addColumn('added_at', 'timestamptz', (c) => c.notNull())
    .addColumn('mailed_at', 'timestamptz')
    .addColumn('last_mailed_at', 'timestamptz')
    .addColumn('reminders_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('snoozes_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('snoozed_until', 'timestamptz')
    .addColumn('enrolled_at', 'timestamptz')
    .addColumn('checked_at', 'timestamptz')
    .addPrimaryKeyConstraint('enrolment_campaign_member_pk', ['campaign_id', 'upn'])
    .execute();
  // The banner: a person's campaigns, from the person.
  await db.schema
    .createIndex('enrolment_campaign_member_upn_idx')
    .on('enrolment_campaign_member')
    .columns(['upn', 'campaign_id'])
    .execute();
  // The scheduler: who in a campaign still lacks the requirement, least recently checked first.
  await sql`create index enrolment_campaign_member_pending_idx on enrolment_campaign_member
    (campaign_id, checked_at nulls first) where enrolled_at is null`.execute(db);

  await db.schema.alterTable('directory_user').addColumn('mfa_enrolled', 'boolean').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('directory_user').dropColumn('mfa_enrolled').execute();
  await db.schema.dropTable('enrolment_campaign_member').execute();
  await db.schema.dropTable('enrolment_campaign').execute();
}
