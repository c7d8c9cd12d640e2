import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { JWK } from 'jose';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import type { MfaProvider } from '../mfa/port.js';
import type { VerificationService } from '../modules/verification/verification.service.js';
import type { AuditService } from '../modules/audit/audit.service.js';
import type { WebauthnService } from '../modules/webauthn/webauthn.service.js';
import type { SessionsService } from '../modules/sessions/sessions.service.js';
import type { PushService } from '../modules/push/push.service.js';
import type { PushEvents } from '../modules/authenticator/push-events.js';
import type { DefaultMethodService } from '../modules/default-method/default-method.service.js';
import type { FactorPolicyService } from '../modules/factor-policy/factor-policy.service.js';
import { sweepExpiredPayloads } from './adapter.js';
import { interactionRoutes } from './interaction.routes.js';
import { mfaLoginPolicy } from './login-policy.js';
import { providerPassthrough } from './mount.js';
import { accountsRepository, scimDirectoryRoles } from './accounts.js';
import { createProvider } from './provider.js';
import { loadIdpSecrets, publicJwks } from './secrets.js';

export { hashPassword, verifyPassword } from './password.js';
export type { LoginPolicy, LoginStep, LoginResult, LoginRefusal } from './login-policy.js';

export interface EmbeddedIdp {
  issuer: string;
  /** Public signing keys: what the API verifies access tokens against (no network round trip). */
  publicJwks: { keys: JWK[] };
  provider: Provider;
}

export interface EmbeddedIdpOptions {
  db: Kysely<Database>;
  config: AppConfig;
  /** Decides what follows a right password (status, devices) and checks second factors. */
  mfa: MfaProvider;
  /** The app's audit log and verification service (one set of rate limits with the API). */
  audit: AuditService;
  verification: VerificationService;
  /** Passkeys and security keys as a second factor at sign-in. */
  webauthn?: WebauthnService;
  /** Sign-out at the provider also revokes the user's access tokens at the API. */
  sessions?: Pick<SessionsService, 'revokeAll'>;
  /** A push to the user's phone as the second factor (when the provider can push), and its events. */
  pushes?: PushService;
  pushEvents?: PushEvents;
  /** What the second page offers first: the person's default sign-in method. */
  defaultMethod?: Pick<DefaultMethodService, 'firstAtSignIn'>;
  /** The factor policy: the second page offers only what the person may use. */
  factorPolicy?: Pick<FactorPolicyService, 'usableNow'>;
}

/** Expired provider records are removed this often (and once at start). */
const SWEEP_INTERVAL_MS = 15 * 60 * 1000;

const STYLESHEET = fs.readFileSync(new URL('./assets/login.css', import.meta.url), 'utf8');
const WEBAUTHN_SCRIPT = fs.readFileSync(new URL('./assets/webauthn-login.js', import.meta.url), 'utf8');
const PUSH_SCRIPT = fs.readFileSync(new URL('./assets/push-login.js', import.meta.url), 'utf8');

/**
 * Mounts the embedded OpenID Connect provider at the issuer's path (`<basePath>idp`): the provider's
 * own endpoints (discovery, authorize, token, JWKS, end-session, ...), the login pages under
 * `interaction/:uid` (password, then the second factor the MFA provider holds) and their stylesheet
 * under `assets/`. Signing and cookie keys are loaded from
 * (or created in) `app_secret`; everything else the provider stores goes to `oidc_payload`.
 */
export async function registerEmbeddedIdp(app: FastifyInstance, opts: EmbeddedIdpOptions): Promise<EmbeddedIdp> {
  const { db, config } = opts;
  if (config.idp.mode !== 'embedded') throw new Error('registerEmbeddedIdp needs IDP_MODE=embedded');
  const { issuer, clientId, audience, scope } = config.idp;
  const issuerUrl = new URL(issuer);
  const mountPath = issuerUrl.pathname.replace(/\/+$/, '');
  const stylesheet = `${mountPath}/assets/login.css`;

  const secrets = await loadIdpSecrets(db);
  const provider = createProvider({
    settings: {
      issuer,
      clientId,
      audience,
      apiScope: scope,
      publicUrl: config.publicUrl,
      stylesheet,
      mountPath,
      serviceDesk: config.serviceDesk,
    },
    db,
    secrets,
    log: app.log.child({ module: 'idp' }),
    directoryRoles: scimDirectoryRoles(db, config.provisioning.groupRoles, config.roles),
    accountUsable: async (upn) => {
      const account = await opts.mfa.getAccount(upn);
      return account?.status !== 'disabled' && account?.status !== 'locked_out';
    },
  });
  const { sessions } = opts;
  if (sessions) {
    // The provider's end-session (sign-out) ran: the user's access tokens are refused by the API from now on.
    const log = app.log.child({ module: 'idp' });
    (provider as unknown as NodeJS.EventEmitter).on('end_session.success', (ctx: { oidc?: { session?: { accountId?: string } } }) => {
      const accountId = ctx.oidc?.session?.accountId;
      if (!accountId) return;
      void (async () => {
        const account = await accountsRepository(db).findById(accountId);
        if (!account) return;
        const upn = account.username.toLowerCase();
        await opts.audit.atomically(async () => {
          await sessions.revokeAll(upn, 'sign_out');
          await opts.audit.append({ actor: { upn, roles: [] }, target: upn, action: 'idp.sign_out', outcome: 'success', details: {} });
        });
      })().catch((err: unknown) => log.warn({ err }, 'identity provider: revoking the sessions at sign-out failed'));
    });
  }
  const assets = `${mountPath}/assets`;
  const urls = {
    stylesheet,
    portal: config.publicUrl,
    webauthnScript: `${assets}/webauthn-login.js`,
    pushScript: `${assets}/push-login.js`,
    serviceDesk: config.serviceDesk,
  };
  const { audit, verification } = opts;

  await app.register(
    async (idp) => {
      idp.get('/assets/login.css', async (_request, reply) =>
        reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(STYLESHEET),
      );
      idp.get('/assets/webauthn-login.js', async (_request, reply) =>
        reply.header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8').send(WEBAUTHN_SCRIPT),
      );
      idp.get('/assets/push-login.js', async (_request, reply) =>
        reply.header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8').send(PUSH_SCRIPT),
      );
      await idp.register(interactionRoutes, {
        provider,
        db,
        urls,
        mountPath,
        loginPolicy: mfaLoginPolicy(opts.mfa),
        verification,
        audit,
        mfa: opts.mfa,
        webauthn: opts.webauthn,
        ...(opts.pushes && opts.pushEvents ? { pushes: { service: opts.pushes, events: opts.pushEvents } } : {}),
        ...(opts.defaultMethod ? { firstMethod: opts.defaultMethod.firstAtSignIn } : {}),
        ...(opts.factorPolicy ? { usable: opts.factorPolicy.usableNow } : {}),
      });
      await idp.register(providerPassthrough, { provider, mountPath, publicOrigin: issuerUrl.origin });
    },
    { prefix: mountPath },
  );

  let sweeping: Promise<unknown> | undefined;
  const sweep = () => {
    sweeping ??= sweepExpiredPayloads(db)
      .catch((err: unknown) => app.log.warn({ err }, 'identity provider: sweeping expired records failed'))
      .finally(() => (sweeping = undefined));
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    sweep();
    timer = setInterval(sweep, SWEEP_INTERVAL_MS);
    timer.unref();
  });
  // Stop the sweeper and let a running sweep finish before the caller closes the database.
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    await sweeping;
    provider.removeAllListeners();
  });

  return { issuer, publicJwks: publicJwks(secrets.signingKeys), provider };
}
