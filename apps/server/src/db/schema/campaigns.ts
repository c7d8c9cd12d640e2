import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

/** (0026) Enrolment campaigns and each person's state in one. */

export interface EnrolmentCampaignTable {
  id: Generated<string>;
  target_kind: 'group' | 'unit';
  /** The directory (SCIM) group targeted; null once that group is deleted. */
  target_group_id: string | null;
  /** The administrative unit targeted; null once that unit is deleted. */
  target_unit_id: string | null;
  /** The target's name when the campaign started. */
  target_name: string;
  /** `device`: any device; `policy`: a factor the person's factor policy lets them use. */
  requirement: 'device' | 'policy';
  deadline: Timestamp;
  reminder_interval_days: number;
  max_reminders: number;
  max_snoozes: number;
  snooze_days: number;
  state: ColumnType<'active' | 'ended', 'active' | 'ended' | undefined, 'active' | 'ended'>;
  started_by: string;
  started_at: Timestamp;
  ended_by: string | null;
  ended_at: NullableTimestamp;
}

export interface EnrolmentCampaignMemberTable {
  campaign_id: string;
  upn: string;
  added_at: Timestamp;
  /** The first e-mail (null: not sent yet). */
  mailed_at: NullableTimestamp;
  /** The latest e-mail, first or reminder. */
  last_mailed_at: NullableTimestamp;
  reminders_sent: Generated<number>;
  snoozes_used: Generated<number>;
  snoozed_until: NullableTimestamp;
  /** When the person was first seen to meet the requirement (null: not yet). */
  enrolled_at: NullableTimestamp;
  /** When the scheduler last checked them. */
  checked_at: NullableTimestamp;
}

export interface CampaignTables {
  enrolment_campaign: EnrolmentCampaignTable;
  enrolment_campaign_member: EnrolmentCampaignMemberTable;
}
