import type { FastifyError, FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import { errors as oidcErrors } from 'oidc-provider';
import type { Database } from '../db/schema.js';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../lib/db-unavailable.js';
import type { VerificationService } from '../modules/verification/verification.service.js';
import type { AuditService } from '../modules/audit/audit.service.js';
import { accountsRepository } from './accounts.js';
import { AMR_PASSWORD_AND_MFA, completeLogin, type LoginPolicy } from './login-policy.js';
import { dummyPasswordHash } from './password.js';
import { hasPendingSecondFactor, pendingSecondFactor } from './second-factor.js';
import { LOGIN_MESSAGES, loginPage, messagePage, type PageUrls } from './views.js';
import type { MfaProvider } from '../mfa/port.js';
import type { WebauthnService } from '../modules/webauthn/webauthn.service.js';
import { registerPasskeyStep, webauthnSecondFactor } from './webauthn-step.js';
import { html, MAX_USERNAME, paramsSchema, SECOND_FACTOR_RATE_LIMIT } from './interaction-input.js';
import { interactionContext, type InteractionContext, type InteractionContextOptions } from './interaction-context.js';
import { registerPasswordStep } from './password-step.js';
import { registerPasscodeStep } from './passcode-step.js';
import { pushOffer, registerPushStep } from './push-step.js';
import type { PushService } from '../modules/push/push.service.js';
import type { PushEvents } from '../modules/authenticator/push-events.js';
import type { SignInMethod } from '@mfa-portal/shared';
import { z } from 'zod';

export { LOGIN_RATE_LIMIT, SECOND_FACTOR_RATE_LIMIT } from './interaction-input.js';

/** The page's own query: `with=passcode` asks for the passcode field first; anything else is ignored. */
const pageQuerySchema = z.object({ with: z.string().max(16).optional() });

export interface InteractionRoutesOptions {
  provider: Provider;
  db: Kysely<Database>;
  urls: PageUrls;
  /** Path prefix of the provider (e.g. `/idp`): form actions are absolute paths under it. */
  mountPath: string;
  loginPolicy: LoginPolicy;
  /** Checks second factors (rate limits, lockout, `mfa.verify` audit events). */
  verification: VerificationService;
  /** Where the sign-in events (`idp.login.*`) go. */
  audit: AuditService;
  /** Passkeys and security keys as the second factor, when the provider verifies them. */
  mfa?: MfaProvider;
  webauthn?: WebauthnService;
  /** A push to the user's phone as the second factor, when the provider can push. */
  pushes?: { service: PushService; events: PushEvents };
  /** The person's default sign-in method: what the second page offers first. */
  firstMethod?: (upn: string) => Promise<SignInMethod | null>;
  /** What the person's factor policy lets them use now: what the second page offers. */
  usable?: InteractionContextOptions['usable'];
}

/**
 * The login steps of oidc-provider's interactions, at `<mount>/interaction/:uid`: a server-rendered
 * form (Username, Password, Sign in) checked against `idp_account`; then, as the login policy decides
 * with the MFA provider, either the login result handed back to the provider (`amr: ['pwd']`), a
 * refusal (`access_denied`, no token), or a second page (Passcode, Verify) whose success completes
 * the login with `amr: ['pwd', 'mfa']`. Both steps belong to one interaction: the password step leaves
 * its outcome in the interaction's server-side record (see `second-factor.ts`), never in the browser.
 * Consent is automatic (`loadExistingGrant`); a consent prompt, should one still arise, is granted here
 * without a page. Every outcome is audited as `idp.login.*` (never a password or a code).
 *
 * This file holds the set-up shared by the steps (pages for every failure, rate limiting) and the page
 * itself; each step's routes live in their own file: `password-step.ts`, `passcode-step.ts` and
 * `webauthn-step.ts`.
 */
export async function interactionRoutes(app: FastifyInstance, opts: InteractionRoutesOptions): Promise<void> {
  const { provider, urls, mountPath, loginPolicy, verification, audit } = opts;
  const accounts = accountsRepository(opts.db);
  const passkey = opts.mfa ? webauthnSecondFactor({ webauthn: opts.webauthn, mfa: opts.mfa }) : null;
  const push = opts.mfa && opts.pushes ? { ...opts.pushes, mfa: opts.mfa } : null;
  const ctx = interactionContext({
    ...{ provider, urls, mountPath, audit, passkey },
    ...(push ? { pushOffer: pushOffer(push.mfa) } : {}),
    ...(opts.firstMethod ? { firstMethod: opts.firstMethod } : {}),
    ...(opts.usable ? { usable: opts.usable } : {}),
  });
  const { actionFor } = ctx;
  // Hash once now so the first unknown-username attempt is not measurably faster.
  void dummyPasswordHash();

  await app.register(formbody, { bodyLimit: 8 * 1024 });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // These are pages for people: every failure is a page, never a JSON error body.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.statusCode === 429) {
      const uid = (request.params as { uid?: string } | undefined)?.uid;
      const page = uid
        ? loginPage(urls, { action: actionFor(uid), error: LOGIN_MESSAGES.tooManyAttempts })
        : messagePage(urls, 'Too many attempts', LOGIN_MESSAGES.tooManyAttempts);
      return html(reply, 429, page);
    }
    if (error instanceof oidcErrors.SessionNotFound) {
      return html(reply, 400, messagePage(urls, 'Sign-in expired', LOGIN_MESSAGES.expired));
    }
    if (error.validation) {
      return html(reply, 400, messagePage(urls, 'Sign-in failed', LOGIN_MESSAGES.failed));
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      // A body too large, a content type the form does not take, ...: still a page, never a 500.
      return html(reply, error.statusCode, messagePage(urls, 'Sign-in failed', LOGIN_MESSAGES.failed));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ cause: error.message }, 'database unavailable');
      reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return html(reply, 503, messagePage(urls, 'Sign-in unavailable', 'Sign-in is briefly unavailable. Please try again in a moment.'));
    }
    request.log.error({ err: error }, 'identity provider interaction failed');
    return html(reply, 500, messagePage(urls, 'Sign-in failed', LOGIN_MESSAGES.failed));
  });

  if (!app.hasDecorator('createRateLimit')) {
    // Normally registered once by the app (global: false); standalone use (tests) brings its own.
    await app.register(rateLimit, { global: false });
  }
  const secondFactorLimiter = app.createRateLimit({
    max: SECOND_FACTOR_RATE_LIMIT.perInteraction.max,
    timeWindow: SECOND_FACTOR_RATE_LIMIT.perInteraction.timeWindowMs,
    keyGenerator: (req) => `idp-verify|${req.ip}|${(req.params as { uid?: string }).uid ?? ''}`,
  });

  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Grants what the prompt lists as missing (first-party client: no consent screen). */
  async function grantConsent(details: Awaited<ReturnType<InteractionContext['pendingInteraction']>>) {
    const { accountId } = details.session ?? {};
    const clientId = details.params.client_id;
    if (!accountId || typeof clientId !== 'string') throw new oidcErrors.SessionNotFound('no signed-in account for consent');
    const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId });
    if (!grant) throw new oidcErrors.SessionNotFound('grant not found');
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    return { consent: { grantId: await grant.save() } };
  }

  r.get('/interaction/:uid', { schema: { params: paramsSchema, querystring: pageQuerySchema } }, async (request, reply) => {
    const { uid } = request.params;
    const details = await ctx.pendingInteraction(request, reply, uid);
    switch (details.prompt.name) {
      case 'login': {
        const pending = pendingSecondFactor(details.result);
        // "Use a passcode instead" (from the page waiting for a push) puts the passcode field first.
        if (pending)
          return ctx.secondStep(reply, 200, uid, pending.upn, undefined, request.query.with === 'passcode' ? 'passcode' : undefined);
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint.slice(0, MAX_USERNAME) : undefined;
        // A password step whose second factor came too late: say why the password is asked again.
        const expired = hasPendingSecondFactor(details.result) ? { error: LOGIN_MESSAGES.secondFactorExpired } : {};
        return html(reply, 200, loginPage(urls, { action: actionFor(uid), username: hint, ...expired }));
      }
      case 'consent':
        return ctx.finish(request, reply, await grantConsent(details));
      default:
        throw new oidcErrors.SessionNotFound(`unsupported prompt ${details.prompt.name}`);
    }
  });

  // The steps after the page: password, passcode, and the passkey when the provider verifies one.
  registerPasswordStep(app, { ctx, accounts, loginPolicy });
  registerPasscodeStep(app, { ctx, accounts, verification, limiter: secondFactorLimiter });
  if (push) {
    const { service: pushes, events, mfa } = push;
    registerPushStep(app, { ctx, accounts, mfa, pushes, events, limiter: secondFactorLimiter });
  }
  if (passkey) {
    registerPasskeyStep(app, {
      ...{ passkey, paramsSchema, limiter: secondFactorLimiter },
      ...{ record: ctx.record, actorOf: ctx.actorOf, refuse: ctx.refuse, pendingInteraction: ctx.pendingInteraction },
      findAccount: (id) => accounts.findById(id),
      secondStep: ctx.secondStep,
      expired: ctx.passwordAgain,
      signIn: (request, reply, account) => ctx.completeSignIn(request, reply, account, completeLogin(account, AMR_PASSWORD_AND_MFA)),
    });
  }
}
