import { CAMPAIGN_LIMITS, type Campaign, type CampaignStartBody, type CampaignsResponse, type PortalRole } from '@mfa-portal/shared';
import { AppError } from '../../../lib/errors.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { CampaignRow, CampaignsRepository } from '../../campaigns/campaigns.repository.js';
import type { RequestContext } from '../../common/request-context.js';
import { adminAudited } from '../common/admin-audited.js';

/**
 * Enrolment campaigns, as a Solution Administrator starts, reads and ends them. Starting one checks the
 * target (it exists, and holds somebody), the deadline (ahead, within a year) and stores the campaign
 * with its people, with its audit event, in one transaction; anything wrong is refused naming the field,
 * and nothing is stored. The e-mails go out from the scheduler, which `onStarted` wakes.
 */

const LIST_MAX = 100;
const DAY_MS = 86_400_000;
const EMPTY = { inScope: 0, enrolled: 0, overdue: 0, snoozed: 0, reminded: 0, mailed: 0, waiting: 0 };
const iso = (d: Date | string) => new Date(d).toISOString();

export function createCampaignsAdminService(deps: {
  repo: CampaignsRepository;
  audit: AuditService;
  now: () => Date;
  emailEnabled: boolean;
  /** A campaign started: its first e-mails may go out now. */
  onStarted?: () => void;
}) {
  const { repo, audit } = deps;

  async function toCampaigns(rows: CampaignRow[]): Promise<Campaign[]> {
    const progress = await repo.progress(
      rows.map((r) => r.id),
      deps.now(),
    );
    return rows.map((r) => ({
      id: r.id,
      target: { kind: r.target_kind, id: r.target_kind === 'group' ? r.target_group_id : r.target_unit_id, name: r.target_name },
      requirement: r.requirement,
      deadline: iso(r.deadline),
      reminderIntervalDays: r.reminder_interval_days,
      maxReminders: r.max_reminders,
      maxSnoozes: r.max_snoozes,
      snoozeDays: r.snooze_days,
      state: r.state,
      startedBy: r.started_by,
      startedAt: iso(r.started_at),
      endedBy: r.ended_by,
      endedAt: r.ended_at ? iso(r.ended_at) : null,
      progress: progress.get(r.id) ?? EMPTY,
    }));
  }

  async function loaded(id: string): Promise<Campaign> {
    const row = await repo.find(id);
    if (!row) throw new AppError({ code: 'campaign.not_found' });
    return (await toCampaigns([row]))[0]!;
  }

  const described = (c: Campaign) => ({
    campaignId: c.id,
    target: c.target,
    requirement: c.requirement,
    deadline: c.deadline,
    reminderIntervalDays: c.reminderIntervalDays,
    maxReminders: c.maxReminders,
    maxSnoozes: c.maxSnoozes,
    snoozeDays: c.snoozeDays,
    inScope: c.progress.inScope,
  });

  return {
    async list(): Promise<CampaignsResponse> {
      return { campaigns: await toCampaigns(await repo.list(LIST_MAX)), emailEnabled: deps.emailEnabled };
    },

    get: loaded,

    async start(ctx: RequestContext, role: PortalRole, body: CampaignStartBody): Promise<Campaign> {
      const started = await adminAudited(
        audit,
        ctx,
        role,
        'admin.campaign.start',
        null,
        {},
        { target: body.target, requirement: body.requirement, deadline: body.deadline },
        async () => {
          const now = deps.now();
          const deadline = new Date(body.deadline);
          if (deadline.getTime() <= now.getTime() || deadline.getTime() > now.getTime() + CAMPAIGN_LIMITS.deadlineMaxDays * DAY_MS) {
            throw new AppError({
              code: 'campaign.deadline_invalid',
              details: { field: 'deadline', reason: `must be in the future, at most ${CAMPAIGN_LIMITS.deadlineMaxDays} days ahead` },
            });
          }
          const { kind, id } = body.target;
          const what = kind === 'group' ? 'directory group' : 'administrative unit';
          const name = await repo.targetName(kind, id);
          if (name === null) {
            throw new AppError({ code: 'campaign.target_unknown', details: { field: 'target.id', reason: `no ${what} has the id ${id}` } });
          }
          if ((await repo.countTargetMembers(kind, id)) === 0) {
            throw new AppError({
              code: 'campaign.target_empty',
              details: { field: 'target.id', reason: `the ${what} “${name}” is empty: it holds nobody in the portal’s directory` },
            });
          }
          let campaignId: string;
          try {
            campaignId = await repo.insert({
              targetKind: kind,
              targetId: id,
              targetName: name,
              requirement: body.requirement,
              deadline,
              reminderIntervalDays: body.reminderIntervalDays,
              maxReminders: body.maxReminders,
              maxSnoozes: body.maxSnoozes,
              snoozeDays: body.snoozeDays,
              startedBy: ctx.upn.toLowerCase(),
              startedAt: now,
            });
          } catch (err) {
            // The unique index decides between two starts at once, as it does for one started before.
            if ((err as { code?: unknown } | null)?.code === '23505') {
              throw new AppError({
                code: 'campaign.already_running',
                details: { field: 'target.id', reason: `a campaign is already running for “${name}”` },
              });
            }
            throw err;
          }
          const campaign = (await repo.find(campaignId))!;
          await repo.syncMembers(campaign, now);
          return loaded(campaignId);
        },
        described,
      );
      deps.onStarted?.();
      return started;
    },

    async end(ctx: RequestContext, role: PortalRole, id: string): Promise<Campaign> {
      return adminAudited(
        audit,
        ctx,
        role,
        'admin.campaign.end',
        null,
        {},
        { campaignId: id },
        async () => {
          const row = await repo.find(id);
          if (!row) throw new AppError({ code: 'campaign.not_found' });
          if (!(await repo.end(id, ctx.upn.toLowerCase(), deps.now()))) {
            throw new AppError({ code: 'campaign.ended', details: { reason: 'the campaign has already ended' } });
          }
          return loaded(id);
        },
        described,
      );
    },
  };
}

export type CampaignsAdminService = ReturnType<typeof createCampaignsAdminService>;
