import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { JWK } from 'jose';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import type { MfaProvider } from '../mfa/port.js';
import { createVerificationService, type VerificationService } from '../mfa/verification.js';
import { createAuditService, type AuditService } from '../modules/audit/audit.service.js';
import { sweepExpiredPayloads } from './adapter.js';
import { interactionRoutes } from './interaction.routes.js';
import { mfaLoginPolicy } from './login-policy.js';
import { providerPassthrough } from './mount.js';
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
  /** Share the app's audit log and verification service (one set of rate limits); created when absent. */
  audit?: AuditService;
  verification?: VerificationService;
}

/** Expired provider records are removed this often (and once at start). */
const SWEEP_INTERVAL_MS = 15 * 60 * 1000;

const STYLESHEET = fs.readFileSync(new URL('./assets/login.css', import.meta.url), 'utf8');

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
    settings: { issuer, clientId, audience, apiScope: scope, publicUrl: config.publicUrl, stylesheet, mountPath },
    db,
    secrets,
    log: app.log.child({ module: 'idp' }),
  });
  const urls = { stylesheet, portal: config.publicUrl };
  const audit = opts.audit ?? createAuditService(db);
  const verification = opts.verification ?? createVerificationService({ mfa: opts.mfa, audit, limits: config.mfa.verifyRateLimit });

  await app.register(
    async (idp) => {
      idp.get('/assets/login.css', async (_request, reply) =>
        reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(STYLESHEET),
      );
      await idp.register(interactionRoutes, { provider, db, urls, mountPath, loginPolicy: mfaLoginPolicy(opts.mfa), verification, audit });
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
