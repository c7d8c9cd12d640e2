import { z } from 'zod';

/**
 * Enrolment campaigns. A Solution Administrator asks the people of a directory group or an
 * administrative unit who lack a device (or the factor their policy requires) to add one by a
 * deadline (`/api/admin/campaigns`). The portal e-mails each of them, reminds them a bounded number of
 * times, and shows them a banner after sign-in that they may snooze a bounded number of times
 * (`/api/me/campaign`).
 */

/** What counts as done: any device, or a factor the person's factor policy lets them use (phishing-resistant where it requires one). */
export const CAMPAIGN_REQUIREMENTS = ['device', 'policy'] as const;
export type CampaignRequirement = (typeof CAMPAIGN_REQUIREMENTS)[number];

export const CAMPAIGN_TARGET_KINDS = ['group', 'unit'] as const;
export type CampaignTargetKind = (typeof CAMPAIGN_TARGET_KINDS)[number];

/** The bounds of a campaign's settings (the database checks the same). */
export const CAMPAIGN_LIMITS = {
  reminderIntervalDays: { min: 1, max: 30 },
  maxReminders: { min: 1, max: 10 },
  maxSnoozes: { min: 0, max: 10 },
  snoozeDays: { min: 1, max: 14 },
  /** The deadline: in the future, at most this many days ahead. */
  deadlineMaxDays: 365,
} as const;

const bounded = (what: { min: number; max: number }) =>
  z
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(what.min, `must be at least ${what.min}`)
    .max(what.max, `must be at most ${what.max}`);

export const campaignStartBodySchema = z.object({
  target: z.object({
    kind: z.enum(CAMPAIGN_TARGET_KINDS, { message: 'must be group or unit' }),
    id: z.uuid('must be the id of a directory group or an administrative unit'),
  }),
  requirement: z.enum(CAMPAIGN_REQUIREMENTS, { message: 'must be device or policy' }),
  /** When everyone should have done it (a time with its offset, e.g. 2026-03-31T17:00:00Z). */
  deadline: z.iso.datetime({ offset: true, message: 'must be a date and time (ISO 8601)' }),
  /** Days between one e-mail and the next reminder. */
  reminderIntervalDays: bounded(CAMPAIGN_LIMITS.reminderIntervalDays),
  /** Reminders after the first e-mail, at most. */
  maxReminders: bounded(CAMPAIGN_LIMITS.maxReminders),
  /** How many times a person may put the banner off ("Remind me later"). */
  maxSnoozes: bounded(CAMPAIGN_LIMITS.maxSnoozes),
  /** How long one "Remind me later" hides the banner, in days. */
  snoozeDays: bounded(CAMPAIGN_LIMITS.snoozeDays),
});
export type CampaignStartBody = z.infer<typeof campaignStartBodySchema>;

export const campaignParamsSchema = z.object({ id: z.uuid('must be a campaign id') });

/**
 * Where each person in scope stands, each counted once, in this order of precedence: enrolled (meets
 * the requirement), overdue (the deadline passed), snoozed (the banner put off now), reminded (at least
 * one reminder sent), mailed (the first e-mail sent), waiting (nothing sent yet).
 */
export const CAMPAIGN_PROGRESS_KEYS = ['enrolled', 'overdue', 'snoozed', 'reminded', 'mailed', 'waiting'] as const;
export type CampaignProgressKey = (typeof CAMPAIGN_PROGRESS_KEYS)[number];
export const campaignProgressSchema = z.object({
  inScope: z.number().int().nonnegative(),
  enrolled: z.number().int().nonnegative(),
  overdue: z.number().int().nonnegative(),
  snoozed: z.number().int().nonnegative(),
  reminded: z.number().int().nonnegative(),
  mailed: z.number().int().nonnegative(),
  waiting: z.number().int().nonnegative(),
});
export type CampaignProgress = z.infer<typeof campaignProgressSchema>;

export const campaignSchema = z.object({
  id: z.string(),
  target: z.object({ kind: z.enum(CAMPAIGN_TARGET_KINDS), id: z.string().nullable(), name: z.string() }),
  requirement: z.enum(CAMPAIGN_REQUIREMENTS),
  deadline: z.iso.datetime(),
  reminderIntervalDays: z.number().int(),
  maxReminders: z.number().int(),
  maxSnoozes: z.number().int(),
  snoozeDays: z.number().int(),
  state: z.enum(['active', 'ended']),
  startedBy: z.string(),
  startedAt: z.iso.datetime(),
  endedBy: z.string().nullable(),
  endedAt: z.iso.datetime().nullable(),
  progress: campaignProgressSchema,
});
export type Campaign = z.infer<typeof campaignSchema>;

export const campaignsResponseSchema = z.object({
  campaigns: z.array(campaignSchema),
  /** False when no mail server is set up: nobody is e-mailed, the banner still shows. */
  emailEnabled: z.boolean(),
});
export type CampaignsResponse = z.infer<typeof campaignsResponseSchema>;

/** What the banner of a person in an active campaign shows; null when there is nothing to show now. */
export const myCampaignSchema = z.object({
  id: z.string(),
  requirement: z.enum(CAMPAIGN_REQUIREMENTS),
  deadline: z.iso.datetime(),
  /** The deadline passed: the banner says so and can no longer be put off. */
  overdue: z.boolean(),
  maxSnoozes: z.number().int(),
  snoozesLeft: z.number().int().nonnegative(),
  snoozeDays: z.number().int(),
});
export type MyCampaign = z.infer<typeof myCampaignSchema>;
export const myCampaignResponseSchema = z.object({ campaign: myCampaignSchema.nullable() });
export type MyCampaignResponse = z.infer<typeof myCampaignResponseSchema>;
