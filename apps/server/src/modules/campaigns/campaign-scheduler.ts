import type { FastifyBaseLogger } from 'fastify';
import { periodicJob } from '../../lib/periodic-job.js';
import type { AuditService } from '../audit/audit.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { CampaignRow, CampaignsRepository } from './campaigns.repository.js';
import type { RequirementCheck } from './requirement-check.js';

/**
 * The campaigns' background work, every few minutes and soon after a campaign starts: for each active
 * campaign, bring its people in step with the target, then e-mail those due a message (the first one,
 * or a reminder once the interval has passed, at most the campaign's number of reminders, never after
 * the deadline). Each person due is checked first: whoever has since met the requirement is marked
 * enrolled and mailed nothing. Recording a message, queueing it in the outbox and its audit event are
 * one transaction, and the claim re-checks under the row lock, so several instances never send one
 * message twice. Then a few people not checked lately are checked, so progress stays true between
 * messages.
 *
 * The clock is given (tests move it): "due" is always decided against it, never against a timer.
 */

export interface CampaignScheduler {
  /** One pass over every active campaign. */
  runOnce(): Promise<{ invitations: number; reminders: number }>;
  start(): void;
  /** Stops the loop and waits for the pass in progress. */
  stop(): Promise<void>;
  /** Runs a pass soon (a campaign just started); a no-op while stopped. */
  nudge(): void;
}

/** People mailed per transaction. */
const MAIL_BATCH = 100;
/** Most batches per campaign per pass: a huge campaign is mailed over several passes. */
const MAX_BATCHES = 50;
/** People checked per campaign per pass for the progress figures, and how old a check may be. */
const SWEEP = 200;
const RECHECK_MS = 60 * 60_000;

export function createCampaignScheduler(deps: {
  repo: CampaignsRepository;
  check: RequirementCheck;
  audit: AuditService;
  notifications: Pick<NotificationsService, 'enabled' | 'enqueue'>;
  now: () => Date;
  everyMs: number;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}): CampaignScheduler {
  const { repo, check, audit, notifications } = deps;
  /** E-mails everyone due in `c` now; returns how many first messages and reminders were queued. */
  async function mail(c: CampaignRow, now: Date) {
    const counts = { invitations: 0, reminders: 0 };
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const due = (await repo.dueForMail(c, now, MAIL_BATCH)).map((m) => m.upn);
      if (due.length === 0) break;
      const meeting = await check.meeting(due, c.requirement);
      await repo.recordCheck(c.id, due, meeting, now);
      const toMail = due.filter((upn) => !meeting.has(upn));
      const claimed = await audit.atomically(async () => {
        const rows = await repo.claimMail(c, toMail, now);
        for (const row of rows) {
          await notifications.enqueue({
            kind: row.first ? 'campaign_invitation' : 'campaign_reminder',
            targetUpn: row.upn,
            params: {
              at: now.toISOString(),
              actorUpn: null,
              byOther: false,
              deadline: new Date(c.deadline).toISOString(),
              requirement: c.requirement,
            },
            at: now,
          });
        }
        if (rows.length > 0) {
          const first = rows.filter((r) => r.first).length;
          await audit.append({
            actor: null,
            target: null,
            action: 'campaign.mail',
            outcome: 'success',
            details: { campaignId: c.id, target: c.target_name, invitations: first, reminders: rows.length - first },
          });
        }
        return rows;
      });
      for (const row of claimed) counts[row.first ? 'invitations' : 'reminders']++;
      if (due.length < MAIL_BATCH) break;
    }
    return counts;
  }

  async function runOnce() {
    const totals = { invitations: 0, reminders: 0 };
    for (const c of await repo.active()) {
      const now = deps.now();
      await repo.syncMembers(c, now);
      // Without a mail server nobody is mailed (nor recorded as mailed); the banner still shows.
      if (notifications.enabled) {
        const counts = await mail(c, now);
        totals.invitations += counts.invitations;
        totals.reminders += counts.reminders;
      }
      const stale = await repo.pendingToCheck(c.id, new Date(now.getTime() - RECHECK_MS), SWEEP);
      await repo.recordCheck(c.id, stale, await check.meeting(stale, c.requirement), now);
    }
    return totals;
  }

  return periodicJob({
    everyMs: deps.everyMs,
    run: runOnce,
    onError: (err) => deps.log?.warn({ err }, 'the enrolment campaign scheduler failed; it tries again'),
  });
}
