import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authenticationResponseJsonSchema } from '@mfa-portal/shared';
import { AppError } from '../lib/errors.js';
import type { MfaProvider } from '../mfa/port.js';
import type { WebauthnService } from '../modules/webauthn/webauthn.service.js';
import type { IdpAccount } from './accounts.js';
import { AMR_PASSWORD_AND_MFA, type LoginRefusal } from './login-policy.js';
import type { AuditEntry } from '../modules/audit/audit.service.js';
import { errors as oidcErrors } from 'oidc-provider';
import { pendingSecondFactor, type PendingSecondFactor } from './second-factor.js';
import { SECOND_FACTOR_MESSAGES } from './views.js';

/** The form the passkey script posts: the challenge it answered and the credential's JSON. */
export const webauthnFormSchema = z.object({
  challengeId: z.string().max(64).default(''),
  credential: z.string().max(6000).default(''),
});

/**
 * The passkey / security-key alternative of the sign-in's second step. Offered when the
 * provider verifies WebAuthn itself and the user has a credential; the ceremony is the webauthn
 * module's (challenge bound to this interaction, single use, expiring; origin and RP ID of the portal).
 */
export function webauthnSecondFactor(deps: { webauthn: WebauthnService | undefined; mfa: MfaProvider }) {
  const { webauthn, mfa } = deps;
  const ctxOf = (request: FastifyRequest, account: IdpAccount, pending: PendingSecondFactor) => ({
    upn: pending.upn,
    roles: [...account.roles],
    requestId: request.id,
    clientAddress: request.ip ?? null,
  });

  return {
    /** Whether the second page offers a passkey to this user. */
    async offered(upn: string): Promise<boolean> {
      if (!webauthn || !mfa.capabilities.webauthn) return false;
      try {
        return (await mfa.listWebauthnCredentials(upn)).length > 0;
      } catch {
        return false;
      }
    },

    /** JSON: request options bound to this interaction (the script calls navigator.credentials.get with them). */
    async options(request: FastifyRequest, reply: FastifyReply, account: IdpAccount, pending: PendingSecondFactor, uid: string) {
      if (!webauthn) return reply.code(404).send({ code: 'route.not_found' });
      try {
        const options = await webauthn.startAssertion(ctxOf(request, account, pending), 'sign_in', { interactionUid: uid });
        return reply.header('cache-control', 'no-store').send(options);
      } catch (err) {
        if (err instanceof AppError) return reply.code(err.statusCode).header('cache-control', 'no-store').send({ code: err.code });
        throw err;
      }
    },

    /**
     * Checks the posted assertion: `ok` (sign the user in), `refused` (end the sign-in: disabled,
     * locked out...) or a message for the second page.
     */
    async verify(
      request: FastifyRequest,
      account: IdpAccount,
      pending: PendingSecondFactor,
      uid: string,
      form: z.infer<typeof webauthnFormSchema>,
    ): Promise<
      | { kind: 'ok'; deviceId: string }
      | { kind: 'refused'; refusal: LoginRefusal }
      | { kind: 'page'; status: number; message: string; retryAfter?: number }
    > {
      if (!webauthn) return { kind: 'page', status: 400, message: SECOND_FACTOR_MESSAGES.webauthnNotAccepted };
      let response: unknown;
      try {
        response = JSON.parse(form.credential);
      } catch {
        response = null;
      }
      const parsed = z
        .object({ challengeId: z.uuid(), response: authenticationResponseJsonSchema })
        .safeParse({ challengeId: form.challengeId, response });
      if (!parsed.success) return { kind: 'page', status: 400, message: SECOND_FACTOR_MESSAGES.webauthnNotAccepted };
      try {
        const device = await webauthn.finishAssertion(ctxOf(request, account, pending), 'sign_in', parsed.data, { interactionUid: uid });
        return { kind: 'ok', deviceId: device.id };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        switch (err.code) {
          case 'mfa.user_disabled':
          case 'mfa.user_locked_out':
          case 'mfa.user_not_provisioned':
            return {
              kind: 'refused',
              refusal: { code: err.code, reason: typeof err.details?.reason === 'string' ? err.details.reason : null },
            };
          case 'request.rate_limited':
            return {
              kind: 'page',
              status: 429,
              message: SECOND_FACTOR_MESSAGES.tooManyAttempts,
              retryAfter: err.details?.retryAfterSeconds,
            };
          case 'webauthn.counter_regressed':
            return { kind: 'page', status: 401, message: SECOND_FACTOR_MESSAGES.webauthnPossibleClone };
          case 'factor_policy.method_not_allowed':
            return { kind: 'page', status: 403, message: SECOND_FACTOR_MESSAGES.notAllowed };
          default:
            return { kind: 'page', status: 401, message: SECOND_FACTOR_MESSAGES.webauthnNotAccepted };
        }
      }
    },
  };
}

type Passkey = ReturnType<typeof webauthnSecondFactor>;
type Interaction = { prompt: { name: string }; result?: Record<string, unknown> | undefined; returnTo: string };

/** The two routes of the passkey step: its options (JSON, for the script) and the posted assertion. */
export function registerPasskeyStep(
  r: FastifyInstance,
  deps: {
    passkey: Passkey;
    paramsSchema: z.ZodType;
    pendingInteraction: (request: FastifyRequest, reply: FastifyReply, uid: string) => Promise<Interaction>;
    findAccount: (id: string) => Promise<IdpAccount | undefined>;
    limiter: (request: FastifyRequest) => Promise<{ isAllowed: boolean; isExceeded?: boolean; ttlInSeconds?: number }>;
    secondStep: (reply: FastifyReply, status: number, uid: string, upn: string, error: string, tried: 'webauthn') => Promise<FastifyReply>;
    expired: (request: FastifyRequest, reply: FastifyReply, uid: string) => Promise<FastifyReply>;
    record: (request: FastifyRequest, entry: Omit<AuditEntry, 'requestId' | 'clientAddress'>) => Promise<unknown>;
    actorOf: (account: IdpAccount) => { upn: string; roles: string[] };
    refuse: (
      request: FastifyRequest,
      reply: FastifyReply,
      account: IdpAccount,
      refusal: LoginRefusal,
      stage: 'second_factor',
    ) => Promise<unknown>;
    signIn: (request: FastifyRequest, reply: FastifyReply, account: IdpAccount) => Promise<unknown>;
  },
): void {
  const { passkey } = deps;
  const params = { params: deps.paramsSchema };

  /** The pending second factor of this interaction and its account (null: the password again). */
  async function pendingStep(request: FastifyRequest, reply: FastifyReply, uid: string) {
    const details = await deps.pendingInteraction(request, reply, uid);
    if (details.prompt.name !== 'login') throw new oidcErrors.SessionNotFound('no login is pending');
    const pending = pendingSecondFactor(details.result);
    if (!pending) return null;
    const account = await deps.findAccount(pending.accountId);
    if (!account) throw new oidcErrors.SessionNotFound('the account of this sign-in no longer exists');
    return { details, pending, account };
  }

  r.post('/interaction/:uid/webauthn/options', { schema: params }, async (request, reply) => {
    const { uid } = request.params as { uid: string };
    const step = await pendingStep(request, reply, uid);
    if (!step) return reply.code(409).header('cache-control', 'no-store').send({ code: 'webauthn.challenge_not_found' });
    const limit = await deps.limiter(request);
    if (!limit.isAllowed && limit.isExceeded)
      return reply
        .code(429)
        .header('retry-after', String(limit.ttlInSeconds ?? 60))
        .send({ code: 'request.rate_limited' });
    return passkey.options(request, reply, step.account, step.pending, uid);
  });

  r.post('/interaction/:uid/webauthn', { schema: { ...params, body: webauthnFormSchema } }, async (request, reply) => {
    const { uid } = request.params as { uid: string };
    const step = await pendingStep(request, reply, uid);
    if (!step) return deps.expired(request, reply, uid);
    if (step.details.result?.login) return reply.header('cache-control', 'no-store').redirect(step.details.returnTo, 303);
    const { pending, account } = step;
    const page = (status: number, error: string) => deps.secondStep(reply, status, uid, pending.upn, error, 'webauthn');
    const limit = await deps.limiter(request);
    if (!limit.isAllowed && limit.isExceeded) {
      reply.header('retry-after', String(limit.ttlInSeconds ?? 60));
      return page(429, SECOND_FACTOR_MESSAGES.tooManyAttempts);
    }
    const actor = deps.actorOf(account);
    const outcome = await passkey.verify(request, account, pending, uid, request.body as z.infer<typeof webauthnFormSchema>);
    if (outcome.kind === 'ok') {
      await deps.record(request, {
        actor,
        target: pending.upn,
        action: 'idp.login.second_factor_ok',
        outcome: 'success',
        details: { method: 'webauthn', amr: [...AMR_PASSWORD_AND_MFA], deviceId: outcome.deviceId },
      });
      return deps.signIn(request, reply, account);
    }
    if (outcome.kind === 'refused') return deps.refuse(request, reply, account, outcome.refusal, 'second_factor');
    await deps.record(request, {
      actor,
      target: pending.upn,
      action: 'idp.login.second_factor_failed',
      outcome: 'failure',
      reason: 'webauthn.verification_failed',
      details: { method: 'webauthn' },
    });
    if (outcome.retryAfter) reply.header('retry-after', String(outcome.retryAfter));
    return page(outcome.status, outcome.message);
  });
}
