import { z } from 'zod';
import { ADMIN_MANUAL_VERIFICATION_METHODS } from './admin-api.js';

/**
 * A person's activity (`GET /api/me/activity`) as a story: each sign-in, change or service-desk action
 * is one entry, with the audit events it is made of as its steps. The server groups the events and
 * names what happened with the closed lists below; the web application words them (`activity.json`),
 * so no internal action name ever reaches the screen.
 */

/** What an entry says happened, from the person's side. */
export const ACTIVITY_STORIES = [
  // signing in and out
  'sign_in',
  'sign_in_wrong_password',
  'sign_in_wrong_code',
  'sign_in_push_not_approved',
  'sign_in_passkey_refused',
  'sign_in_refused',
  'sign_in_locked_out',
  'sign_in_failed',
  'signed_out',
  // checks made in the portal
  'step_up',
  'device_checked',
  // changes
  'app_added',
  'token_added',
  'phone_added',
  'passkey_added',
  'app_activated',
  'activation_link',
  'app_notifications',
  'device_renamed',
  'device_removed',
  'default_method_set',
  'token_resynced',
  'bypass_created',
  'bypass_revoked',
  'bypass_revoked_all',
  'enrolment_pass_used',
  'push_approved',
  'push_denied',
  'push_reported',
  'campaign_snoozed',
  // "Doesn't look like you?" and what it did
  'reported',
  'signed_out_everywhere',
  'account_locked_by_you',
  // the service desk
  'identity_checked',
  'helpdesk_bypass_created',
  'helpdesk_bypass_revoked',
  'helpdesk_device_removed',
  'helpdesk_token_resynced',
  'helpdesk_token_unassigned',
  'helpdesk_unlocked',
  'helpdesk_activation_sent',
  'helpdesk_lost_device',
  'helpdesk_disabled',
  'helpdesk_enabled',
  'helpdesk_signed_out_everywhere',
  'helpdesk_enrolment_pass_issued',
  'helpdesk_enrolment_pass_revoked',
  'helpdesk_other',
  // the account itself
  'account_locked',
  'account_created',
  'account_updated',
  'account_disabled',
  'account_enabled',
  'account_removed',
  /** Anything this version has no words for: said safely, never by its internal name. */
  'other',
] as const;
export type ActivityStory = (typeof ACTIVITY_STORIES)[number];

/** The finer steps of an entry that are not stories of their own (a step may also be any story). */
export const ACTIVITY_STEPS = [
  'password_ok',
  'password_wrong',
  'code_accepted',
  'code_wrong',
  'push_sent',
  'push_approved_on_phone',
  'push_denied_on_phone',
  'push_not_approved',
  'passkey_refused',
  'signed_in',
  'sign_in_refused',
  'locked_out',
  'too_many_attempts',
  'step_up_asked',
  'last_device_asked',
  'identity_check_asked',
  'identity_check_failed',
  'check_refused',
] as const;
export type ActivityStepName = (typeof ACTIVITY_STEPS)[number];

/** How someone proved who they were, in words the person knows (never a protocol name). */
export const ACTIVITY_METHODS = [
  'password',
  'authenticator_app',
  'hardware_token',
  'code',
  'bypass_code',
  'push',
  'passkey',
  ...ADMIN_MANUAL_VERIFICATION_METHODS,
] as const;
export type ActivityMethod = (typeof ACTIVITY_METHODS)[number];

/**
 * How an entry ended: `unfinished` is neither a success nor a failure (a sign-in or a change left
 * half-way, e.g. a confirmation asked for and not given): nothing was changed, and nothing failed.
 */
export const ACTIVITY_OUTCOMES = ['success', 'failure', 'unfinished'] as const;
export type ActivityOutcome = (typeof ACTIVITY_OUTCOMES)[number];

/**
 * Who acted, from the reader's side: `someone` is a person not known yet (a sign-in that did not pass
 * its second check), `service_desk` a member of staff acting through the administration,
 * `other` another person, `system` the portal or the directory.
 */
export const ACTIVITY_ACTORS = ['you', 'someone', 'service_desk', 'other', 'system'] as const;
export type ActivityActor = (typeof ACTIVITY_ACTORS)[number];

/** The particulars a sentence may name (each null when it does not apply or is not known). */
const activityValuesSchema = {
  method: z.enum(ACTIVITY_METHODS).nullable(),
  deviceName: z.string().nullable(),
  serial: z.string().nullable(),
  count: z.number().int().nullable(),
};

export const activityStepSchema = z.object({
  /** The audit event this step is. */
  eventId: z.string(),
  occurredAt: z.iso.datetime(),
  step: z.enum([...ACTIVITY_STEPS, ...ACTIVITY_STORIES]),
  /** `unfinished`: a question asked before going on (confirm it is you, confirm removing the last device). */
  outcome: z.enum(ACTIVITY_OUTCOMES),
  /** Error code of a failure (words in the `errors` namespace), when there is one. */
  reason: z.string().nullable(),
  ...activityValuesSchema,
});
export type ActivityStep = z.infer<typeof activityStepSchema>;

export const activityEntrySchema = z.object({
  /** The event a "Doesn't look like you?" report names (POST /api/me/activity/:id/report). */
  id: z.string(),
  /** When it ended (its newest event). */
  occurredAt: z.iso.datetime(),
  story: z.enum(ACTIVITY_STORIES),
  outcome: z.enum(ACTIVITY_OUTCOMES),
  /** Why it failed (an error code), when it did. */
  reason: z.string().nullable(),
  actor: z.enum(ACTIVITY_ACTORS),
  /** Who acted, when another person (the service desk member, for instance). */
  actorUpn: z.string().nullable(),
  /** Whom it was about, when not the reader (a service desk member's own actions on others). */
  targetUpn: z.string().nullable(),
  ...activityValuesSchema,
  /** Where it came from: address, browser and system from the User-Agent, approximate location (IP_LOCATIONS). */
  client: z.object({
    address: z.string().nullable(),
    browser: z.string().nullable(),
    os: z.string().nullable(),
    location: z.string().nullable(),
  }),
  /** What happened, step by step, oldest first. */
  steps: z.array(activityStepSchema),
  /** Whether "Doesn't look like you?" is offered (not on a report itself). */
  reportable: z.boolean(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** 200 body of GET /api/me/activity: entries newest first; `limit` counts entries. */
export const activityResponseSchema = z.object({
  entries: z.array(activityEntrySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ActivityResponse = z.infer<typeof activityResponseSchema>;
