import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errors as oidcErrors } from 'oidc-provider';
import { AppError } from '../lib/errors.js';
import { MfaError, type MfaProvider } from '../mfa/port.js';
import type { PushEvents } from '../modules/authenticator/push-events.js';
import { openSse } from '../modules/authenticator/sse.js';
import type { PushService } from '../modules/push/push.service.js';
import type { AccountsRepository } from './accounts.js';
import type { InteractionContext } from './interaction-context.js';
import { paramsSchema } from './interaction-input.js';
import { AMR_PASSWORD_AND_MFA, completeLogin } from './login-policy.js';
import { pendingSecondFactor } from './second-factor.js';
import { pushWaitingPage, SECOND_FACTOR_MESSAGES } from './views.js';

type Limiter = (request: FastifyRequest) => Promise<{ isAllowed: boolean; isExceeded?: boolean; ttlInSeconds?: number }>;

const startBodySchema = z.object({ deviceId: z.string().max(64).default('') });
const txParamsSchema = paramsSchema.extend({ txid: z.uuid() });
// The number rides along only to be shown again (it is on the page already; the phone checks it).
const answerBodySchema = z.object({ number: z.string().max(8).default('') });

/** The push a sign-in started belongs to that interaction alone (another one's approval grants nothing). */
export const interactionSessionKey = (uid: string) => `idp:${uid}`;

/** The user's devices a push can go to, when the provider can push (the second page offers them). */
export function pushOffer(mfa: MfaProvider) {
  return async (upn: string): Promise<Array<{ id: string; name: string }>> => {
    if (!mfa.capabilities.push) return [];
    try {
      return (await mfa.listDevices(upn)).filter((d) => d.capabilities.includes('push')).map((d) => ({ id: d.id, name: d.name }));
    } catch {
      return [];
    }
  };
}

/**
 * The push alternative of the sign-in's second step: `POST <mount>/interaction/:uid/push` sends it (a
 * number shown large, typed in the app), `GET …/push/:txid/events` tells the waiting page when it is
 * answered (server-sent events), and `POST …/push/:txid` reads the answer: an approval completes the
 * sign-in with `amr: ['pwd', 'mfa']`; a denial or a time-out goes back to the second page, saying so.
 * Pushes count against the user's push budget; the posts against the second step's rate limit.
 */
export function registerPushStep(
  app: FastifyInstance,
  deps: {
    ctx: InteractionContext;
    accounts: AccountsRepository;
    mfa: MfaProvider;
    pushes: PushService;
    events: PushEvents;
    limiter: Limiter;
  },
): void {
  const { ctx, accounts, mfa, pushes, events, limiter } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const offer = pushOffer(mfa);

  async function pendingStep(request: FastifyRequest, reply: FastifyReply, uid: string) {
    const details = await ctx.pendingInteraction(request, reply, uid);
    if (details.prompt.name !== 'login') throw new oidcErrors.SessionNotFound('no login is pending');
    const pending = pendingSecondFactor(details.result);
    if (!pending) return null;
    const account = await accounts.findById(pending.accountId);
    if (!account) throw new oidcErrors.SessionNotFound('the account of this sign-in no longer exists');
    return { details, pending, account };
  }

  const limited = async (request: FastifyRequest, reply: FastifyReply) => {
    const limit = await limiter(request);
    if (limit.isAllowed || !limit.isExceeded) return false;
    reply.header('retry-after', String(limit.ttlInSeconds ?? 60));
    return true;
  };

  const waitingPage = (
    reply: FastifyReply,
    status: number,
    uid: string,
    m: { upn: string; txid: string; deviceId: string; number: string; expiresAt: string; deviceName: string; error?: string },
  ) => {
    const at = `${ctx.pagePath(uid)}/push/${m.txid}`;
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        pushWaitingPage(ctx.urls, {
          username: m.upn,
          deviceName: m.deviceName,
          number: m.number,
          expiresAt: m.expiresAt,
          eventsUrl: `${at}/events`,
          action: at,
          passcodeUrl: `${ctx.pagePath(uid)}?with=passcode`,
          ...(m.error ? { error: m.error } : {}),
        }),
      );
  };

  r.post('/interaction/:uid/push', { schema: { params: paramsSchema, body: startBodySchema } }, async (request, reply) => {
    const { uid } = request.params;
    const step = await pendingStep(request, reply, uid);
    if (!step) return ctx.passwordAgain(request, reply, uid);
    if (step.details.result?.login) return reply.header('cache-control', 'no-store').redirect(step.details.returnTo, 303);
    const { pending, account } = step;
    const page = (status: number, error: string) => ctx.secondStep(reply, status, uid, pending.upn, error, 'push');
    if (await limited(request, reply)) return page(429, SECOND_FACTOR_MESSAGES.tooManyAttempts);
    const device = (await offer(pending.upn)).find((d) => d.id === request.body.deviceId);
    const actor = ctx.actorOf(account);
    const base = { actor, target: pending.upn, action: 'idp.login.push_start' };
    if (!device) {
      await ctx.record(request, { ...base, outcome: 'failure', reason: 'device.not_found', details: { method: 'push' } });
      return page(400, SECOND_FACTOR_MESSAGES.pushNotSent);
    }
    try {
      const started = await pushes.start({
        upn: pending.upn,
        deviceId: device.id,
        purpose: 'sign_in',
        actorUpn: pending.upn,
        session: interactionSessionKey(uid),
        clientAddress: request.ip ?? null,
      });
      await ctx.record(request, { ...base, outcome: 'success', details: { method: 'push', deviceId: device.id, txid: started.push.txid } });
      const { txid, expiresAt } = started.push;
      return waitingPage(reply, 200, uid, {
        upn: pending.upn,
        txid,
        deviceId: device.id,
        number: started.confirmationCode ?? '',
        expiresAt,
        deviceName: device.name,
      });
    } catch (err) {
      if (!(err instanceof AppError) && !(err instanceof MfaError)) throw err;
      const code = err instanceof AppError ? err.code : `mfa.${err.code}`;
      await ctx.record(request, { ...base, outcome: 'failure', reason: code, details: { method: 'push', deviceId: device.id } });
      if (err instanceof AppError && err.code === 'request.rate_limited') {
        reply.header('retry-after', String(err.headers['retry-after'] ?? 60));
        return page(429, SECOND_FACTOR_MESSAGES.tooManyAttempts);
      }
      if (err instanceof AppError && err.code === 'factor_policy.method_not_allowed') return page(403, SECOND_FACTOR_MESSAGES.notAllowed);
      return page(409, SECOND_FACTOR_MESSAGES.pushNotSent);
    }
  });

  r.get('/interaction/:uid/push/:txid/events', { schema: { params: txParamsSchema } }, async (request, reply) => {
    const { uid, txid } = request.params;
    const step = await pendingStep(request, reply, uid);
    const who = step ? { upn: step.pending.upn, txid, session: interactionSessionKey(uid) } : null;
    if (!who || !(await pushes.peek(who))) return reply.code(404).header('cache-control', 'no-store').send({ code: 'push.not_found' });
    events.watchPush(openSse(reply), who);
    return reply;
  });

  r.post('/interaction/:uid/push/:txid', { schema: { params: txParamsSchema, body: answerBodySchema } }, async (request, reply) => {
    const { uid, txid } = request.params;
    const step = await pendingStep(request, reply, uid);
    if (!step) return ctx.passwordAgain(request, reply, uid);
    if (step.details.result?.login) return reply.header('cache-control', 'no-store').redirect(step.details.returnTo, 303);
    const { pending, account } = step;
    const page = (status: number, error: string) => ctx.secondStep(reply, status, uid, pending.upn, error, 'push');
    if (await limited(request, reply)) return page(429, SECOND_FACTOR_MESSAGES.tooManyAttempts);
    let polled: Awaited<ReturnType<PushService['poll']>>;
    try {
      polled = await pushes.poll({ upn: pending.upn, txid, purpose: 'sign_in', session: interactionSessionKey(uid) });
    } catch (err) {
      if (err instanceof MfaError && err.code === 'push_not_found') return page(404, SECOND_FACTOR_MESSAGES.pushNotSent);
      throw err;
    }
    const { push } = polled;
    const actor = ctx.actorOf(account);
    if (push.state === 'waiting') {
      const deviceName = (await offer(pending.upn)).find((d) => d.id === push.deviceId)?.name ?? 'your phone';
      return waitingPage(reply, 200, uid, {
        upn: pending.upn,
        txid,
        deviceId: push.deviceId,
        number: /^[0-9]{2}$/.test(request.body.number) ? request.body.number : '',
        expiresAt: push.expiresAt,
        deviceName,
        error: SECOND_FACTOR_MESSAGES.pushNotAnswered,
      });
    }
    if (push.state === 'approved') {
      const status = await mfa.getAccount(pending.upn);
      if (status?.status === 'disabled' || status?.status === 'locked_out') {
        const code = status.status === 'disabled' ? 'mfa.user_disabled' : 'mfa.user_locked_out';
        return ctx.refuse(request, reply, account, { code, reason: status.statusReason }, 'second_factor');
      }
      if (polled.justCompleted)
        await ctx.record(request, {
          actor,
          target: pending.upn,
          action: 'idp.login.second_factor_ok',
          outcome: 'success',
          details: { method: 'push', amr: [...AMR_PASSWORD_AND_MFA], deviceId: push.deviceId, txid },
        });
      return ctx.completeSignIn(request, reply, account, completeLogin(account, AMR_PASSWORD_AND_MFA));
    }
    if (polled.justCompleted)
      await ctx.record(request, {
        actor,
        target: pending.upn,
        action: 'idp.login.second_factor_failed',
        outcome: 'failure',
        reason: `push.${push.state}`,
        details: { method: 'push', deviceId: push.deviceId, txid },
      });
    return page(401, push.state === 'timeout' ? SECOND_FACTOR_MESSAGES.pushTimeout : SECOND_FACTOR_MESSAGES.pushDenied);
  });
}
