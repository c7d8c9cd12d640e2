import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import { errors as oidcErrors, type InteractionResults } from 'oidc-provider';
import { isUserText } from '@mfa-portal/shared';
import type { Database } from '../db/schema.js';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../lib/db-unavailable.js';
import { VERIFY_FAILURE_CODES, type VerificationResult, type VerificationService } from '../modules/verification/verification.service.js';
import type { AuditEntry, AuditService } from '../modules/audit/audit.service.js';
import { accountsRepository, type IdpAccount } from './accounts.js';
import { AMR_PASSWORD_AND_MFA, completeLogin, upnOf, type LoginPolicy, type LoginRefusal, type LoginResult } from './login-policy.js';
import { dummyPasswordHash, verifyPassword } from './password.js';
import {
  hasPendingSecondFactor,
  parsePasscodeInput,
  pendingResult,
  pendingSecondFactor,
  refusalDescription,
  type PendingSecondFactor,
} from './second-factor.js';
import { LOGIN_MESSAGES, loginPage, messagePage, SECOND_FACTOR_MESSAGES, secondFactorPage, type PageUrls } from './views.js';
import type { MfaProvider } from '../mfa/port.js';
import type { WebauthnService } from '../modules/webauthn/webauthn.service.js';
import { registerPasskeyStep, webauthnSecondFactor } from './webauthn-step.js';
import {
  html,
  LOGIN_RATE_LIMIT,
  loginBodySchema,
  MAX_USERNAME,
  paramsSchema,
  SECOND_FACTOR_RATE_LIMIT,
  usernameOf,
  verifyBodySchema,
} from './interaction-input.js';

export { LOGIN_RATE_LIMIT, SECOND_FACTOR_RATE_LIMIT } from './interaction-input.js';

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
  /** Passkeys and security keys as the second factor (issue 18), when the provider verifies them. */
  mfa?: MfaProvider;
  webauthn?: WebauthnService;
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
 */
export async function interactionRoutes(app: FastifyInstance, opts: InteractionRoutesOptions): Promise<void> {
  const { provider, urls, mountPath, loginPolicy, verification, audit } = opts;
  const accounts = accountsRepository(opts.db);
  const pagePath = (uid: string) => `${mountPath}/interaction/${encodeURIComponent(uid)}`;
  const actionFor = (uid: string) => `${pagePath(uid)}/login`;
  const verifyActionFor = (uid: string) => `${pagePath(uid)}/verify`;
  const passkey = opts.mfa ? webauthnSecondFactor({ webauthn: opts.webauthn, mfa: opts.mfa }) : null;
  /** The second page (passcode, and a passkey when the user has one). */
  const secondStep = async (reply: FastifyReply, status: number, uid: string, upn: string, error?: string) => {
    const at = pagePath(uid);
    const webauthn = passkey && (await passkey.offered(upn)) ? { optionsUrl: `${at}/webauthn/options`, action: `${at}/webauthn` } : null;
    const model = { action: verifyActionFor(uid), username: upn, ...(error ? { error } : {}), ...(webauthn ? { webauthn } : {}) };
    return html(reply, status, secondFactorPage(urls, model));
  };
  /** The second factor came too late (or without a password step): the password page again. */
  const passwordAgain = async (request: FastifyRequest, reply: FastifyReply, uid: string) => {
    await provider.interactionResult(request.raw, reply.raw, {}, { mergeWithLastSubmission: false });
    return html(reply, 400, loginPage(urls, { action: actionFor(uid), error: LOGIN_MESSAGES.secondFactorExpired }));
  };
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
  const secondFactorLimiter = app.createRateLimit({
    max: SECOND_FACTOR_RATE_LIMIT.perInteraction.max,
    timeWindow: SECOND_FACTOR_RATE_LIMIT.perInteraction.timeWindowMs,
    keyGenerator: (req) => `idp-verify|${req.ip}|${(req.params as { uid?: string }).uid ?? ''}`,
  });

  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The pending interaction for this browser, or a reason to refuse. */
  async function pendingInteraction(request: FastifyRequest, reply: FastifyReply, uid: string) {
    const details = await provider.interactionDetails(request.raw, reply.raw);
    if (details.uid !== uid) throw new oidcErrors.SessionNotFound('interaction does not match the cookie');
    return details;
  }
  type Details = Awaited<ReturnType<typeof pendingInteraction>>;

  /** Stores `result` in the interaction and sends the browser back to the provider, which acts on it. */
  async function finish(request: FastifyRequest, reply: FastifyReply, result: InteractionResults) {
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  }

  const record = (request: FastifyRequest, entry: Omit<AuditEntry, 'requestId' | 'clientAddress'>) =>
    audit.append({ ...entry, requestId: request.id, clientAddress: request.ip ?? null });
  const actorOf = (account: IdpAccount) => ({ upn: upnOf(account), roles: [...account.roles] });

  async function completeSignIn(request: FastifyRequest, reply: FastifyReply, account: IdpAccount, login: LoginResult) {
    request.log.info({ event: 'idp.login_succeeded', accountId: account.id, amr: login.amr }, 'signed in');
    return finish(request, reply, { login });
  }

  /**
   * Ends the authorization with `access_denied` (no code, no token): the portal receives the stable
   * code and the provider's reason in `error_description` and shows its account-disabled page.
   */
  async function refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    account: IdpAccount,
    refusal: LoginRefusal,
    stage: 'password' | 'second_factor',
  ) {
    await record(request, {
      actor: actorOf(account),
      target: upnOf(account),
      action: 'idp.login.refused',
      outcome: 'failure',
      reason: refusal.code,
      details: { stage, ...(refusal.reason ? { statusReason: refusal.reason } : {}) },
    });
    request.log.info(
      { event: 'idp.login_refused', accountId: account.id, code: refusal.code, stage },
      'sign-in refused by the MFA provider',
    );
    return finish(request, reply, { error: 'access_denied', error_description: refusalDescription(refusal) });
  }

  /** Grants what the prompt lists as missing (first-party client: no consent screen). */
  async function grantConsent(details: Details) {
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

  r.get('/interaction/:uid', { schema: { params: paramsSchema } }, async (request, reply) => {
    const { uid } = request.params;
    const details = await pendingInteraction(request, reply, uid);
    switch (details.prompt.name) {
      case 'login': {
        const pending = pendingSecondFactor(details.result);
        if (pending) return secondStep(reply, 200, uid, pending.upn);
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint.slice(0, MAX_USERNAME) : undefined;
        // A password step whose second factor came too late: say why the password is asked again.
        const expired = hasPendingSecondFactor(details.result) ? { error: LOGIN_MESSAGES.secondFactorExpired } : {};
        return html(reply, 200, loginPage(urls, { action: actionFor(uid), username: hint, ...expired }));
      }
      case 'consent':
        return finish(request, reply, await grantConsent(details));
      default:
        throw new oidcErrors.SessionNotFound(`unsupported prompt ${details.prompt.name}`);
    }
  });

  r.post(
    '/interaction/:uid/login',
    {
      schema: { params: paramsSchema, body: loginBodySchema },
      preHandler: limitAttempts,
    },
    async (request, reply) => {
      const { uid } = request.params;
      const { username, password } = request.body;
      const details = await pendingInteraction(request, reply, uid);
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
        actor: actorOf(account),
        target: upnOf(account),
        action: 'idp.login.password_ok',
        outcome: 'success',
        details: { next: step.kind, ...(step.kind === 'complete' ? { amr: step.login.amr } : {}) },
      });
      switch (step.kind) {
        case 'complete':
          return completeSignIn(request, reply, account, step.login);
        case 'refused':
          return refuse(request, reply, account, step.refusal, 'password');
        case 'second_factor': {
          const pending: PendingSecondFactor = { accountId: step.accountId, upn: step.upn, passwordAt: Math.floor(Date.now() / 1000) };
          // Server-side, in this interaction only: the second page reads it back; resuming with it signs nobody in.
          await provider.interactionResult(request.raw, reply.raw, pendingResult(pending), { mergeWithLastSubmission: false });
          return reply.header('cache-control', 'no-store').redirect(pagePath(uid), 303);
        }
      }
    },
  );

  r.post('/interaction/:uid/verify', { schema: { params: paramsSchema, body: verifyBodySchema } }, async (request, reply) => {
    const { uid } = request.params;
    const details = await pendingInteraction(request, reply, uid);
    if (details.prompt.name !== 'login') throw new oidcErrors.SessionNotFound('no login is pending');
    if (details.result?.login) {
      // Already verified (a second submission of the same form): carry on as the first answer did.
      return reply.header('cache-control', 'no-store').redirect(details.returnTo, 303);
    }
    const pending = pendingSecondFactor(details.result);
    // No password step in this interaction, or it is too old: the password again, from the start.
    if (!pending) return passwordAgain(request, reply, uid);
    const page = (status: number, error: string) => secondStep(reply, status, uid, pending.upn, error);

    const limit = await secondFactorLimiter(request);
    if (!limit.isAllowed && limit.isExceeded) {
      reply.header('retry-after', String(limit.ttlInSeconds));
      return page(429, SECOND_FACTOR_MESSAGES.tooManyAttempts);
    }

    const account = await accounts.findById(pending.accountId);
    if (!account) throw new oidcErrors.SessionNotFound('the account of this sign-in no longer exists');
    const actor = actorOf(account);
    const failed = (reason: string, extra: Record<string, unknown> = {}) =>
      record(request, { actor, target: pending.upn, action: 'idp.login.second_factor_failed', outcome: 'failure', reason, details: extra });

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
      return completeSignIn(request, reply, account, completeLogin(account, AMR_PASSWORD_AND_MFA));
    }

    await failed(VERIFY_FAILURE_CODES[result.reason], result.justLocked ? { justLocked: true } : {});
    if (result.justLocked || result.reason === 'user_locked_out') {
      return refuse(request, reply, account, { code: 'mfa.user_locked_out', reason: result.statusReason }, 'second_factor');
    }
    switch (result.reason) {
      case 'user_disabled':
        return refuse(request, reply, account, { code: 'mfa.user_disabled', reason: result.statusReason }, 'second_factor');
      case 'not_provisioned':
        return refuse(request, reply, account, { code: 'mfa.user_not_provisioned', reason: null }, 'second_factor');
      case 'rate_limited':
        reply.header('retry-after', String(result.retryAfterSeconds));
        return page(429, SECOND_FACTOR_MESSAGES.tooManyAttempts);
      case 'no_factor':
        return page(401, SECOND_FACTOR_MESSAGES.noPasscodeDevice);
      case 'code_invalid':
      case 'code_replayed':
        return page(401, SECOND_FACTOR_MESSAGES.notAccepted);
    }
  });

  if (passkey) {
    registerPasskeyStep(app, {
      ...{ passkey, paramsSchema, record, actorOf, refuse, pendingInteraction, limiter: secondFactorLimiter },
      findAccount: (id) => accounts.findById(id),
      secondStep,
      expired: passwordAgain,
      signIn: (request, reply, account) => completeSignIn(request, reply, account, completeLogin(account, AMR_PASSWORD_AND_MFA)),
    });
  }
}
