import type { Kysely } from 'kysely';
import type { ActivityReportBody, ActivityReportResponse } from '@mfa-portal/shared';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { MfaProvider } from '../../mfa/port.js';
import type { AuditService } from '../audit/audit.service.js';
import { audited } from '../common/audited.js';
import type { RequestContext } from '../common/request-context.js';

/**
 * "Doesn't look like you?" on an activity entry (named by one of its events): the report is audited (and, through the audit
 * log's notification hook, mailed to the security contact); then what the user chose is done, each
 * step audited: sign out everywhere, revoke their bypass codes, lock the account until the service
 * desk helps (the provider's disable, which the helpdesk reverses with "re-enable").
 */

/** Signs an account out everywhere (the embedded provider's sessions and tokens; more at merge time). */
export interface SessionRevoker {
  revokeAll(upn: string, reason: string): Promise<number>;
}

const LOCK_REASON = "Locked by the user after reporting activity that wasn't them; the service desk must check it is them.";

export function createActivityReportService(deps: {
  db: Kysely<Database>;
  audit: AuditService;
  mfa: MfaProvider;
  sessions: SessionRevoker;
  /** The security contact is told (SMTP and SECURITY_CONTACT_EMAIL configured). */
  contactNotified: boolean;
}) {
  const { db, audit, mfa } = deps;

  async function findOwnEvent(upn: string, id: string) {
    const page = await audit.listForUser(upn, { cursor: String(BigInt(id) + 1n), limit: 1 });
    const event = page.events[0];
    if (!event || event.id !== id) throw new AppError({ code: 'activity.event_not_found', details: { field: 'id' } });
    return event;
  }

  return {
    async report(ctx: RequestContext, eventId: string, body: ActivityReportBody): Promise<ActivityReportResponse> {
      const upn = ctx.upn.toLowerCase();
      const event = await findOwnEvent(upn, eventId);
      const actor = { upn: ctx.upn, roles: ctx.roles };
      const base = { actor, target: upn, requestId: ctx.requestId, clientAddress: ctx.clientAddress };
      await audit.append({
        ...base,
        action: 'activity.report',
        outcome: 'success',
        details: {
          reportedEventId: event.id,
          reportedAction: event.action,
          reportedAt: new Date(event.occurredAt).toISOString(),
          ...(event.clientAddress ? { reportedAddress: event.clientAddress } : {}),
          signOutEverywhere: body.signOutEverywhere,
          // (a key naming codes is refused by the audit log's secret check)
          revokeBypass: body.revokeBypassCodes,
          lockAccount: body.lockAccount,
        },
      });

      let revokedCodes = 0;
      if (body.revokeBypassCodes) {
        revokedCodes = await audited(
          audit,
          ctx,
          {
            action: 'bypass.revoke_all',
            target: upn,
            details: { cause: 'activity.report' },
            successDetails: (n: number) => ({ count: n }),
          },
          async () => {
            const live = await mfa.listBypassCodes(upn);
            for (const code of live) await mfa.revokeBypassCode(upn, code.id);
            return live.length;
          },
        );
      }

      let locked = false;
      const lifecycle = mfa.lifecycle;
      if (body.lockAccount && lifecycle) {
        await db.transaction().execute(async () => {
          locked = await lifecycle.setEnabled(upn, false, LOCK_REASON);
          if (locked) {
            // A lock ends every session, the attacker's refresh tokens included, whatever else was chosen.
            await deps.sessions.revokeAll(upn, 'account_locked');
            await audit.append({ ...base, action: 'account.self_lock', outcome: 'success', details: { cause: 'activity.report' } });
          }
        });
      }

      // Last: signing out ends this very session's renewals too.
      let signedOut = false;
      if (body.signOutEverywhere) {
        await audited(
          audit,
          ctx,
          {
            action: 'account.sign_out_everywhere',
            target: upn,
            details: { cause: 'activity.report' },
            successDetails: (n: number) => ({ removed: n }),
          },
          () => deps.sessions.revokeAll(upn, 'activity.report'),
        );
        signedOut = true;
      }
      return {
        reported: true,
        securityContactNotified: deps.contactNotified,
        signedOutEverywhere: signedOut,
        bypassCodesRevoked: revokedCodes,
        locked,
      };
    },
  };
}

export type ActivityReportService = ReturnType<typeof createActivityReportService>;
