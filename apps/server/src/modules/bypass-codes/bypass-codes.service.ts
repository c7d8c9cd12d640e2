import type { BypassCodeInfo, BypassCodesResponse, CreateBypassCodesResponse } from '@mfa-portal/shared';
import type { RequestContext } from '../common/request-context.js';
import { iso, selfService, type SelfServiceDeps } from '../common/self-service.js';

/** The caller's own bypass codes (`/api/me/bypass-codes`): list (metadata only), create (step-up; shown once), revoke. */

export type CreateBypassCodesInput = { count: number; validitySeconds: number; reuseCount: number; replaceExisting: boolean };

const bypassDetails = (b: BypassCodeInfo) => ({ bypassId: b.id, expiresAt: b.expiresAt });

export function createBypassCodesService(deps: SelfServiceDeps) {
  const { mfa } = deps;
  const { clock, usableAccount, mayEnrol, requireStepUp, audited } = selfService(deps);

  return {
    async listBypassCodes(ctx: RequestContext): Promise<BypassCodesResponse> {
      const now = clock();
      await usableAccount(ctx, now);
      return { codes: await mfa.listBypassCodes(ctx.upn, { now }) };
    },

    async createBypassCodes(ctx: RequestContext, body: CreateBypassCodesInput): Promise<CreateBypassCodesResponse> {
      const now = clock();
      const created = await audited(
        ctx,
        'bypass.create',
        { count: body.count, validitySeconds: body.validitySeconds, reuseCount: body.reuseCount, replaceExisting: body.replaceExisting },
        async () => {
          await usableAccount(ctx, now);
          await mayEnrol(ctx, 'bypass_codes', { adding: body.count, replacing: body.replaceExisting });
          await requireStepUp(ctx, now);
          return mfa.createBypassCodes(ctx.upn, { ...body, createdBy: ctx.upn }, { now });
        },
        (r) => ({ bypassIds: r.codes.map((c) => c.id), replaced: r.replaced }),
      );
      return { codes: created.codes.map((c) => ({ ...c, expiresAt: iso(c.expiresAt) })), replaced: created.replaced };
    },

    async revokeBypassCode(ctx: RequestContext, id: string): Promise<BypassCodeInfo> {
      const now = clock();
      return audited(
        ctx,
        'bypass.revoke',
        { bypassId: id },
        async () => {
          await usableAccount(ctx, now);
          return mfa.revokeBypassCode(ctx.upn, id, { now });
        },
        bypassDetails,
      );
    },
  };
}

export type BypassCodesService = ReturnType<typeof createBypassCodesService>;
