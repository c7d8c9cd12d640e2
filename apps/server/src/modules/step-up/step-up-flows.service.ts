import type { StartedPush, StepUpBody, StepUpPushStatus, StepUpStatus } from '@mfa-portal/shared';
import type { RequestContext } from '../common/request-context.js';
import { auditPushResult, selfService, verificationError, type SelfServiceDeps } from '../common/self-service.js';
import type { StepUpService } from './step-up.service.js';

/**
 * Stepping up (`/api/me/step-up`): verify with an existing factor (a passcode, a bypass code, or an
 * approved push) to allow sensitive changes for a few minutes. The records themselves are kept by
 * the step-up service (step-up.service.ts).
 */
export function createStepUpFlows(
  deps: SelfServiceDeps & {
    stepUp: StepUpService;
    /** Refuses a step-up method the policy does not accept for this caller (phishing-resistant requirement). */
    assertStepUpMethod?: (ctx: RequestContext, method: 'passcode' | 'bypass' | 'push') => Promise<void>;
  },
) {
  const { audit, stepUp, verification, pushes } = deps;
  const { clock, usableAccount, throttle, requireCapability, audited } = selfService(deps);

  return {
    async stepUpStatus(ctx: RequestContext): Promise<StepUpStatus> {
      const now = clock();
      await usableAccount(ctx, now);
      return stepUp.status(ctx, now);
    },

    async stepUp(ctx: RequestContext, body: StepUpBody): Promise<StepUpStatus> {
      const now = clock();
      await usableAccount(ctx, now);
      await deps.assertStepUpMethod?.(ctx, body.method);
      // A provider refusal (e.g. a factor the provider cannot check) passes on to the error handler: a clear answer, never a 500.
      const result = await verification.verify({
        upn: ctx.upn,
        code: body.code,
        purpose: 'step_up',
        methods: [body.method],
        actor: { upn: ctx.upn, roles: ctx.roles },
        requestId: ctx.requestId,
        clientAddress: ctx.clientAddress,
        now,
      });
      if (!result.ok) throw verificationError(result);
      return stepUp.record(ctx, body.method, now);
    },

    async startStepUpPush(ctx: RequestContext, deviceId: string): Promise<StartedPush> {
      const now = clock();
      await deps.assertStepUpMethod?.(ctx, 'push');
      await throttle(ctx, 'step_up.push_start', { deviceId });
      const started = await audited(
        ctx,
        'step_up.push_start',
        { deviceId },
        async () => {
          requireCapability('push');
          await usableAccount(ctx, now);
          return pushes.start({
            upn: ctx.upn,
            deviceId,
            purpose: 'step_up',
            actorUpn: ctx.upn,
            session: ctx.session,
            clientAddress: ctx.clientAddress,
            now,
          });
        },
        (r) => ({ txid: r.push.txid }),
      );
      return { ...started.push, verificationCode: started.confirmationCode };
    },

    async stepUpPushStatus(ctx: RequestContext, txid: string): Promise<StepUpPushStatus> {
      const now = clock();
      const polled = await pushes.poll({ upn: ctx.upn, txid, purpose: 'step_up', session: ctx.session, now });
      if (!polled.justCompleted) return { ...polled.push, stepUp: await stepUp.status(ctx, now) };
      await auditPushResult(audit, ctx, 'step_up.push', polled.push, polled.detail);
      // An approval counts once, when first seen; the account must still be usable then.
      if (polled.push.state === 'approved') {
        await usableAccount(ctx, now);
        return { ...polled.push, stepUp: await stepUp.record(ctx, 'push', now) };
      }
      return { ...polled.push, stepUp: await stepUp.status(ctx, now) };
    },
  };
}

export type StepUpFlows = ReturnType<typeof createStepUpFlows>;
