import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errors as oidcErrors } from 'oidc-provider';
import { isUserText } from '@mfa-portal/shared';
import type { AccountsRepository } from './accounts.js';
import { upnOf, type LoginPolicy } from './login-policy.js';
import { dummyPasswordHash, verifyPassword } from './password.js';
import { pendingResult, type PendingSecondFactor } from './second-factor.js';
import { LOGIN_MESSAGES, loginPage } from './views.js';
import { html, LOGIN_RATE_LIMIT, loginBodySchema, paramsSchema, usernameOf } from './interaction-input.js';
import type { InteractionContext } from './interaction-context.js';

/**
 * The password step, `POST <mount>/interaction/:uid/login`: the form checked against `idp_account`,
 * then the login policy decides with the MFA provider whether the sign-in is complete, refused, or
 * goes on to the second page (its pending state kept in the interaction, never in the browser).
 */
export function registerPasswordStep(
  app: FastifyInstance,
  deps: { ctx: InteractionContext; accounts: AccountsRepository; loginPolicy: LoginPolicy },
): void {
  const { ctx, accounts, loginPolicy } = deps;
  const { urls, actionFor, record } = ctx;

  // Two counters, checked by hand: the plugin's route hooks run only one limiter per request.
  const limiters = [
    app.createRateLimit({
      max: LOGIN_RATE_LIMIT.perUsername.max,
      timeWindow: LOGIN_RATE_LIMIT.perUsername.timeWindowMs,
      keyGenerator: (req) => `idp-login|${req.ip}|${usernameOf(req)}`,
    }),
    app.createRateLimit({
      max: LOGIN_RATE_LIMIT.perAddress.max,
      timeWindow: LOGIN_RATE_LIMIT.perAddress.timeWindowMs,
      keyGenerator: (req) => `idp-login|${req.ip}`,
    }),
  ];
  async function limitAttempts(request: FastifyRequest, reply: FastifyReply) {
    for (const check of limiters) {
      const limit = await check(request);
      if (!limit.isAllowed && limit.isExceeded) {
        reply.header('retry-after', String(limit.ttlInSeconds));
        throw Object.assign(new Error('too many sign-in attempts'), { statusCode: 429 });
      }
    }
  }

  app.withTypeProvider<ZodTypeProvider>().post(
    '/interaction/:uid/login',
    {
      schema: { params: paramsSchema, body: loginBodySchema },
      preHandler: limitAttempts,
    },
    async (request, reply) => {
      const { uid } = request.params;
      const { username, password } = request.body;
      const details = await ctx.pendingInteraction(request, reply, uid);
      if (details.prompt.name !== 'login') throw new oidcErrors.SessionNotFound('no login is pending');
      // A NUL, an unpaired surrogate or a control character is no one's username or password:
      // refused on the page, before any lookup (and never echoed back).
      if (!isUserText(username) || !isUserText(password)) {
        request.log.info({ event: 'idp.login_failed', username: null }, 'sign-in refused: the username or password is not text');
        await record(request, {
          actor: null,
          target: null,
          action: 'idp.login.password_failed',
          outcome: 'failure',
          reason: 'invalid_input',
        });
        return html(reply, 400, loginPage(urls, { action: actionFor(uid), error: LOGIN_MESSAGES.invalidInput }));
      }

      const account = username.trim() ? await accounts.findByUsername(username) : undefined;
      // Unknown users cost the same hash as known ones.
      const valid = await verifyPassword(password, account?.password_hash ?? (await dummyPasswordHash()));
      if (!account || !valid) {
        const typed = username.trim().toLowerCase().slice(0, 64);
        request.log.info({ event: 'idp.login_failed', username: typed }, 'sign-in refused');
        await record(request, {
          actor: null,
          target: account ? upnOf(account) : typed || null,
          action: 'idp.login.password_failed',
          outcome: 'failure',
          reason: 'invalid_credentials',
        });
        return html(
          reply,
          401,
          loginPage(urls, { action: actionFor(uid), username: username.trim(), error: LOGIN_MESSAGES.invalidCredentials }),
        );
      }

      const step = await loginPolicy(account);
      await record(request, {
        actor: ctx.actorOf(account),
        target: upnOf(account),
        action: 'idp.login.password_ok',
        outcome: 'success',
        details: { next: step.kind, ...(step.kind === 'complete' ? { amr: step.login.amr } : {}) },
      });
      switch (step.kind) {
        case 'complete':
          return ctx.completeSignIn(request, reply, account, step.login);
        case 'refused':
          return ctx.refuse(request, reply, account, step.refusal, 'password');
        case 'second_factor': {
          const pending: PendingSecondFactor = { accountId: step.accountId, upn: step.upn, passwordAt: Math.floor(Date.now() / 1000) };
          // Server-side, in this interaction only: the second page reads it back; resuming with it signs nobody in.
          await ctx.storeResult(request, reply, pendingResult(pending));
          return reply.header('cache-control', 'no-store').redirect(ctx.pagePath(uid), 303);
        }
      }
    },
  );
}
