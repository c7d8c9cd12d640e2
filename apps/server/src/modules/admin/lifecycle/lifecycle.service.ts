import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../lib/errors.js';
import type { MfaProvider } from '../../../mfa/port.js';
import type { AuditService } from '../../audit/audit.service.js';
import { failureCode } from '../../common/error-translator.js';
import type { SessionsService } from '../../sessions/sessions.service.js';

/**
 * Account lifecycle in the admin screens: disable and re-enable an MFA account with a
 * reason (the policy decides who: helpdesk on non-protected accounts, Solution Administrator on all,
 * never on themself), and revoke a user's unused bypass codes.
 */

export interface LifecycleContext {
  upn: string;
  roles: readonly string[];
  requestId: string;
  clientAddress: string | null;
}

export function createLifecycleService(deps: {
  db: Kysely<Database>;
  mfa: MfaProvider;
  audit: AuditService;
  /** A disabled account's access tokens are refused at once, not when they expire. */
  sessions: Pick<SessionsService, 'revokeAll'>;
  now?: () => Date;
}) {
  const { db, mfa, audit } = deps;
  const clock = deps.now ?? (() => new Date());

  return {
    async setEnabled(ctx: LifecycleContext, role: string, target: string, enabled: boolean, j: { reason: string; ticket?: string }) {
      const lifecycle = mfa.lifecycle;
      if (!lifecycle)
        throw new AppError({ code: 'mfa.not_supported_by_provider', details: { reason: 'Accounts are disabled at the MFA provider.' } });
      const upn = target.toLowerCase();
      const now = clock();
      await db.transaction().execute(async (trx) => {
        // A provider's refusal (Duo: a user in its Trash) rolls this back; the error handler answers it with its stable code.
        const found = await lifecycle.setEnabled(upn, enabled, enabled ? null : j.reason);
        if (!found) throw new AppError({ code: 'mfa.user_not_provisioned' });
        await trx.updateTable('directory_user').set({ updated_at: now }).where('upn', '=', upn).execute();
        if (!enabled) await deps.sessions.revokeAll(upn, 'account_disabled', { now });
        await audit.append(
          {
            actor: { upn: ctx.upn, roles: ctx.roles },
            target: upn,
            action: enabled ? 'admin.user.enable' : 'admin.user.disable',
            outcome: 'success',
            requestId: ctx.requestId,
            clientAddress: ctx.clientAddress,
            details: { role, reason: j.reason, ...(j.ticket ? { ticket: j.ticket } : {}) },
          },
          { now },
        );
      });
      return mfa.getUserData(upn, now);
    },

    /** Revokes the user's live bypass codes (those named by `ids`, or all); audited with their ids. */
    async revokeBypassCodes(
      ctx: LifecycleContext,
      role: string,
      target: string,
      body: { reason: string; ticket?: string; ids?: string[] },
    ) {
      const upn = target.toLowerCase();
      const now = clock();
      const base = {
        actor: { upn: ctx.upn, roles: ctx.roles },
        target: upn,
        action: 'admin.user.revoke_bypass_codes',
        requestId: ctx.requestId,
        clientAddress: ctx.clientAddress,
      };
      const details = { role, reason: body.reason, ...(body.ticket ? { ticket: body.ticket } : {}) };
      const revoked: string[] = [];
      try {
        // The revocations and their audit event: one transaction, both or neither.
        await audit.atomically(async () => {
          const live = await mfa.listBypassCodes(upn, { now });
          const chosen = body.ids ? live.filter((c) => body.ids!.includes(c.id)) : live;
          if (body.ids && chosen.length !== body.ids.length) throw new AppError({ code: 'bypass.not_found' });
          for (const c of chosen) {
            await mfa.revokeBypassCode(upn, c.id, { now });
            revoked.push(c.id);
          }
          await audit.append({ ...base, outcome: 'success', details: { ...details, bypassIds: revoked } });
        });
      } catch (err) {
        // The failure is audited here; the error handler answers it.
        await audit.append({ ...base, outcome: 'failure', reason: failureCode(err), details: { ...details, bypassIds: revoked } });
        throw err;
      }
      return { revoked: revoked.length };
    },
  };
}

export type LifecycleService = ReturnType<typeof createLifecycleService>;
