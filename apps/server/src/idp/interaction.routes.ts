import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import { errors as oidcErrors, type InteractionResults } from 'oidc-provider';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import { accountsRepository } from './accounts.js';
import type { LoginPolicy } from './login-policy.js';
import { dummyPasswordHash, verifyPassword } from './password.js';
import { LOGIN_MESSAGES, loginPage, messagePage, type PageUrls } from './views.js';

/** Password attempts: per client address and username, and per address over all usernames. */
export const LOGIN_RATE_LIMIT = {
  perUsername: { max: 10, timeWindowMs: 60_000 },
  perAddress: { max: 30, timeWindowMs: 60_000 },
} as const;

const MAX_USERNAME = 256;
const MAX_PASSWORD = 1024;

const paramsSchema = z.object({ uid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
const loginBodySchema = z.object({
  username: z.string().max(MAX_USERNAME).default(''),
  password: z.string().max(MAX_PASSWORD).default(''),
});

export interface InteractionRoutesOptions {
  provider: Provider;
  db: Kysely<Database>;
  urls: PageUrls;
  /** Path prefix of the provider (e.g. `/idp`): form actions are absolute paths under it. */
  mountPath: string;
  loginPolicy: LoginPolicy;
}

const usernameOf = (request: FastifyRequest) =>
  String((request.body as { username?: unknown } | undefined)?.username ?? '')
    .trim()
    .toLowerCase();

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);

/**
 * The login step of oidc-provider's interactions, at `<mount>/interaction/:uid`: a server-rendered
 * form (Username, Password, Sign in), the password check against `idp_account`, then the login result
 * handed back to the provider. Consent is automatic (`loadExistingGrant`); a consent prompt, should one
 * still arise, is granted here without a page.
 */
export async function interactionRoutes(app: FastifyInstance, opts: InteractionRoutesOptions): Promise<void> {
  const { provider, urls, mountPath, loginPolicy } = opts;
  const accounts = accountsRepository(opts.db);
  const actionFor = (uid: string) => `${mountPath}/interaction/${encodeURIComponent(uid)}/login`;
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

  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The pending interaction for this browser, or a reason to refuse. */
  async function pendingInteraction(request: FastifyRequest, reply: FastifyReply, uid: string) {
    const details = await provider.interactionDetails(request.raw, reply.raw);
    if (details.uid !== uid) throw new oidcErrors.SessionNotFound('interaction does not match the cookie');
    return details;
  }

  async function finish(request: FastifyRequest, reply: FastifyReply, result: InteractionResults) {
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  }

  /** Grants what the prompt lists as missing (first-party client: no consent screen). */
  async function grantConsent(details: Awaited<ReturnType<typeof pendingInteraction>>) {
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
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint.slice(0, MAX_USERNAME) : undefined;
        return html(reply, 200, loginPage(urls, { action: actionFor(uid), username: hint }));
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

      const account = username.trim() ? await accounts.findByUsername(username) : undefined;
      // Unknown users cost the same hash as known ones.
      const valid = await verifyPassword(password, account?.password_hash ?? (await dummyPasswordHash()));
      if (!account || !valid) {
        request.log.info({ event: 'idp.login_failed', username: username.trim().toLowerCase().slice(0, 64) }, 'sign-in refused');
        return html(
          reply,
          401,
          loginPage(urls, { action: actionFor(uid), username: username.trim(), error: LOGIN_MESSAGES.invalidCredentials }),
        );
      }

      const step = await loginPolicy(account);
      switch (step.kind) {
        case 'complete':
          request.log.info({ event: 'idp.login_succeeded', accountId: account.id, amr: step.login.amr }, 'signed in');
          return finish(request, reply, { login: step.login });
      }
    },
  );
}
