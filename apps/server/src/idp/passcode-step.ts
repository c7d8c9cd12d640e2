import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errors as oidcErrors } from 'oidc-provider';
import { VERIFY_FAILURE_CODES, type VerificationResult, type VerificationService } from '../modules/verification/verification.service.js';
import type { AccountsRepository } from './accounts.js';
import { AMR_PASSWORD_AND_MFA, completeLogin } from './login-policy.js';
import { parsePasscodeInput, pendingSecondFactor } from './second-factor.js';
import { SECOND_FACTOR_MESSAGES } from './views.js';
import { paramsSchema, verifyBodySchema } from './interaction-input.js';
import type { InteractionContext } from './interaction-context.js';

type Limiter = (request: FastifyRequest) => Promise<{ isAllowed: boolean; isExceeded?: boolean; ttlInSeconds?: number }>;

/**
 * The passcode (or bypass code) form of the second step, `POST <mount>/interaction/:uid/verify`:
 * only after this interaction's password step, checked by the verification service (its rate
 * limits, lockout and `mfa.verify` events); success completes the login with `amr: ['pwd', 'mfa']`.
 */
export function registerPasscodeStep(
  app: FastifyInstance,
  deps: { ctx: InteractionContext; accounts: AccountsRepository; verification: VerificationService; limiter: Limiter },
): void {
  const { ctx, accounts, verification, limiter } = deps;
  const { record } = ctx;

  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/interaction/:uid/verify', { schema: { params: paramsSchema, body: verifyBodySchema } }, async (request, reply) => {
      const { uid } = request.params;
      const details = await ctx.pendingInteraction(request, reply, uid);
      if (details.prompt.name !== 'login') throw new oidcErrors.SessionNotFound('no login is pending');
      if (details.result?.login) {
        // Already verified (a second submission of the same form): carry on as the first answer did.
        return reply.header('cache-control', 'no-store').redirect(details.returnTo, 303);
      }
      const pending = pendingSecondFactor(details.result);
      // No password step in this interaction, or it is too old: the password again, from the start.
      if (!pending) return ctx.passwordAgain(request, reply, uid);
      const page = (status: number, error: string) => ctx.secondStep(reply, status, uid, pending.upn, error, 'passcode');

      const limit = await limiter(request);
      if (!limit.isAllowed && limit.isExceeded) {
        reply.header('retry-after', String(limit.ttlInSeconds));
        return page(429, SECOND_FACTOR_MESSAGES.tooManyAttempts);
      }

      const account = await accounts.findById(pending.accountId);
      if (!account) throw new oidcErrors.SessionNotFound('the account of this sign-in no longer exists');
      const actor = ctx.actorOf(account);
      const failed = (reason: string, extra: Record<string, unknown> = {}) =>
        record(request, {
          actor,
          target: pending.upn,
          action: 'idp.login.second_factor_failed',
          outcome: 'failure',
          reason,
          details: extra,
        });

      const input = parsePasscodeInput(request.body.passcode);
      if (input.kind === 'malformed') {
        // Not a code at all: said so, not checked, not counted towards the lockout.
        await failed(VERIFY_FAILURE_CODES.code_invalid, { malformed: true });
        return page(400, SECOND_FACTOR_MESSAGES.malformed);
      }

      const result: VerificationResult = await verification.verify({
        upn: pending.upn,
        code: input.code,
        purpose: 'sign_in',
        methods: ['passcode', 'bypass'],
        actor,
        requestId: request.id,
        clientAddress: request.ip ?? null,
      });

      if (result.ok) {
        await record(request, {
          actor,
          target: pending.upn,
          action: 'idp.login.second_factor_ok',
          outcome: 'success',
          details: {
            method: result.method,
            amr: [...AMR_PASSWORD_AND_MFA],
            ...(result.deviceId ? { deviceId: result.deviceId } : {}),
            ...(result.bypassId ? { bypassId: result.bypassId } : {}),
          },
        });
        return ctx.completeSignIn(request, reply, account, completeLogin(account, AMR_PASSWORD_AND_MFA));
      }

      await failed(VERIFY_FAILURE_CODES[result.reason], result.justLocked ? { justLocked: true } : {});
      if (result.justLocked || result.reason === 'user_locked_out') {
        return ctx.refuse(request, reply, account, { code: 'mfa.user_locked_out', reason: result.statusReason }, 'second_factor');
      }
      switch (result.reason) {
        case 'user_disabled':
          return ctx.refuse(request, reply, account, { code: 'mfa.user_disabled', reason: result.statusReason }, 'second_factor');
        case 'not_provisioned':
          return ctx.refuse(request, reply, account, { code: 'mfa.user_not_provisioned', reason: null }, 'second_factor');
        case 'rate_limited':
          reply.header('retry-after', String(result.retryAfterSeconds));
          return page(429, SECOND_FACTOR_MESSAGES.tooManyAttempts);
        case 'no_factor':
          return page(401, SECOND_FACTOR_MESSAGES.noPasscodeDevice);
        case 'not_allowed':
          return page(403, SECOND_FACTOR_MESSAGES.notAllowed);
        case 'code_invalid':
        case 'code_replayed':
          return page(401, SECOND_FACTOR_MESSAGES.notAccepted);
      }
    });
}
