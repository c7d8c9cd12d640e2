import type { MyCampaign, MyCampaignResponse } from '@mfa-portal/shared';
import { AppError } from '../../lib/errors.js';
import type { AuditService } from '../audit/audit.service.js';
import { audited } from '../common/audited.js';
import type { RequestContext } from '../common/request-context.js';
import type { CampaignsRepository } from './campaigns.repository.js';
import type { RequirementCheck } from './requirement-check.js';

/**
 * A person's side of the enrolment campaigns: the banner they see after sign-in while an active
 * campaign asks them for what they lack, and "Remind me later". Both are about the caller only (the
 * routes take no person): nobody can read or put off another person's banner. Whoever meets the
 * requirement when asked is recorded as enrolled, and the banner is gone.
 */

const DAY_MS = 86_400_000;

export function createCampaignsService(deps: { repo: CampaignsRepository; check: RequirementCheck; audit: AuditService; now: () => Date }) {
  const { repo, check, audit } = deps;

  /** The caller's campaigns still open for them, each checked now (those they have met are recorded and left out). */
  async function open(upn: string, now: Date) {
    const rows = await repo.pendingFor(upn);
    const met = new Map<string, boolean>();
    const out: typeof rows = [];
    for (const row of rows) {
      if (!met.has(row.requirement)) met.set(row.requirement, (await check.meeting([upn], row.requirement)).has(upn));
      if (met.get(row.requirement)) await repo.recordCheck(row.campaign_id, [upn], new Set([upn]), now);
      else out.push(row);
    }
    return out;
  }

  const toBanner = (row: Awaited<ReturnType<typeof open>>[number], now: Date): MyCampaign => {
    const deadline = new Date(row.deadline);
    return {
      id: row.campaign_id,
      requirement: row.requirement,
      deadline: deadline.toISOString(),
      overdue: deadline <= now,
      maxSnoozes: row.max_snoozes,
      snoozesLeft: Math.max(0, row.max_snoozes - row.snoozes_used),
      snoozeDays: row.snooze_days,
    };
  };

  /** The banner to show now: the soonest deadline not put off (an overdue one cannot be put off). */
  async function mine(upn: string): Promise<MyCampaignResponse> {
    const now = deps.now();
    const shown = (await open(upn, now)).find((r) => new Date(r.deadline) <= now || !r.snoozed_until || new Date(r.snoozed_until) <= now);
    return { campaign: shown ? toBanner(shown, now) : null };
  }

  return {
    mine: (upn: string) => mine(upn.toLowerCase()),

    /**
     * "Remind me later": hides the banner of campaign `id` for the campaign's snooze length, while the
     * person has snoozes left and the deadline has not passed. 404 `campaign.not_found` for a campaign
     * that is not open for the caller (not in it, ended, or already met); 409 `campaign.overdue`, 409
     * `campaign.snooze_limit_reached`. Audited; answers the banner to show next.
     */
    async snooze(ctx: RequestContext, id: string): Promise<MyCampaignResponse> {
      const upn = ctx.upn.toLowerCase();
      const now = deps.now();
      const row = (await open(upn, now)).find((r) => r.campaign_id === id);
      await audited(audit, ctx, { action: 'campaign.snooze', target: upn, details: { campaignId: id } }, async () => {
        if (!row) throw new AppError({ code: 'campaign.not_found' });
        if (new Date(row.deadline) <= now) throw new AppError({ code: 'campaign.overdue', details: { reason: 'the deadline has passed' } });
        const until = new Date(now.getTime() + row.snooze_days * DAY_MS);
        const used = await repo.snooze(id, upn, row.max_snoozes, until);
        if (used === null) {
          throw new AppError({
            code: 'campaign.snooze_limit_reached',
            details: { reason: `it may be put off at most ${row.max_snoozes} times`, max: row.max_snoozes },
          });
        }
        return { snoozesUsed: used, snoozedUntil: until.toISOString() };
      });
      return mine(upn);
    },
  };
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;
