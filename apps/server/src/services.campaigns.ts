import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema.js';
import { MfaError, type MfaProvider } from './mfa/index.js';
import { createCampaignsAdminService } from './modules/admin/campaigns/campaigns-admin.service.js';
import type { AuditService } from './modules/audit/audit.service.js';
import { createCampaignScheduler } from './modules/campaigns/campaign-scheduler.js';
import { campaignsRepository } from './modules/campaigns/campaigns.repository.js';
import { deviceHoldersRepository } from './modules/campaigns/device-holders.repository.js';
import { createCampaignsService } from './modules/campaigns/campaigns.service.js';
import { eachPerson, requirementCheck } from './modules/campaigns/requirement-check.js';
import type { FactorPolicyService } from './modules/factor-policy/factor-policy.service.js';
import type { NotificationsService } from './modules/notifications/notifications.service.js';

/** How often the campaigns' e-mails and progress are looked at (a started campaign is looked at at once). */
const CAMPAIGN_PASS_MS = 5 * 60_000;

/**
 * The enrolment campaigns' part of the composition root (services.ts builds everything else): how
 * "has what is required" is known for this MFA provider, the banner and snooze of staff, the Solution
 * Administrator's side, and the scheduler that mails (the app starts and stops it). `opts.clock` is the
 * clock of all three, given so that tests can move it.
 */
export function buildCampaigns(
  deps: {
    db: Kysely<Database>;
    mfa: MfaProvider;
    audit: AuditService;
    notifications: NotificationsService;
    factorPolicy: Pick<FactorPolicyService, 'usableNow'>;
  },
  opts: { clock?: () => Date; log?: Pick<FastifyBaseLogger, 'warn'> },
) {
  const { db, mfa, audit } = deps;
  const now = opts.clock ?? (() => new Date());
  const repo = campaignsRepository(db);
  const holders = deviceHoldersRepository(db);
  // Asked of the provider, a few people at a time (a provider the portal keeps no copy of).
  const askProvider = (upns: readonly string[]) =>
    eachPerson(upns, async (upn) => {
      try {
        return (await mfa.listDevices(upn)).length > 0;
      } catch (err) {
        if (err instanceof MfaError && err.code === 'not_provisioned') return false;
        throw err;
      }
    });
  // A factor the person's policy lets them use now (only passkeys and security keys where it requires phishing-resistant).
  const policyMet = async (upn: string) => (await deps.factorPolicy.usableNow(upn)).devices.some((d) => d.usable);
  // The scheduler's rounds ask about many people: the portal's own store; Duo's "enrolled" as the directory
  // sync mirrored it (no call to Duo); else the provider. The banner asks about one person, as they are
  // now: the portal's own store, or the provider (one call), so a device just added at Duo counts at once.
  const check = requirementCheck({
    deviceHolders: mfa.name === 'builtin' ? holders.builtin : mfa.eachUserPage ? holders.mirrored : askProvider,
    policyMet,
  });
  const personCheck = requirementCheck({ deviceHolders: mfa.name === 'builtin' ? holders.builtin : askProvider, policyMet });
  const scheduler = createCampaignScheduler({
    repo,
    check,
    audit,
    notifications: deps.notifications,
    now,
    everyMs: CAMPAIGN_PASS_MS,
    ...(opts.log ? { log: opts.log } : {}),
  });
  return {
    campaigns: createCampaignsService({ repo, check: personCheck, audit, now }),
    campaignsAdmin: createCampaignsAdminService({
      repo,
      audit,
      now,
      emailEnabled: deps.notifications.enabled,
      onStarted: () => scheduler.nudge(),
    }),
    campaignScheduler: scheduler,
  };
}
