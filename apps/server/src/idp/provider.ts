import type { FastifyBaseLogger } from 'fastify';
import type { ServiceDeskContact } from '@mfa-portal/shared';
import type { Kysely } from 'kysely';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../db/schema.js';
import { accountsRepository, identityClaims, type DirectoryRoles } from './accounts.js';
import { createAdapterClass } from './adapter.js';
import { SIGNING_ALG, type IdpSecrets } from './secrets.js';
import { loggedOutPage, logoutPage, PORTAL_NAME, providerErrorPage, type PageUrls } from './views.js';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../lib/db-unavailable.js';

/** Lifetimes (seconds). Tokens are bound to the session: signing out or letting it lapse ends them all. */
export const IDP_TTL = {
  accessToken: 60 * 60,
  idToken: 60 * 60,
  authorizationCode: 60,
  refreshToken: 12 * 60 * 60,
  session: 8 * 60 * 60,
  interaction: 30 * 60,
  grant: 24 * 60 * 60,
} as const;

/** Scopes the provider knows besides the API's. `user.read` is what MSAL asks of Microsoft Graph. */
export const IDP_SCOPES = ['openid', 'profile', 'email', 'offline_access', 'user.read'] as const;

/** Identity claims released with `openid` alone (as Entra does) and again under their usual scopes. */
const IDENTITY_CLAIMS = ['upn', 'preferred_username', 'email', 'given_name', 'family_name', 'name', 'roles'];

export interface EmbeddedIdpSettings {
  issuer: string;
  clientId: string;
  /** Resource indicator and `aud` of API access tokens, e.g. `api://mfa-portal`. */
  audience: string;
  /** The API scope as clients request it, e.g. `api://mfa-portal/access_as_user`. */
  apiScope: string;
  /** Origin + base path of the SPA, ending with '/'. */
  publicUrl: string;
  /** Path of the provider's pages' stylesheet. */
  stylesheet: string;
  /** Where the interaction (login) pages live: `${mountPath}/interaction/:uid`. */
  mountPath: string;
  /** How to reach the service desk, at the foot of the provider's own pages; null: not configured. */
  serviceDesk?: ServiceDeskContact | null;
}

/** `api://mfa-portal/access_as_user` → `access_as_user`. */
export function apiScopeName(apiScope: string, audience: string): string {
  return apiScope.startsWith(`${audience}/`) ? apiScope.slice(audience.length + 1) : apiScope;
}

/**
 * The oidc-provider instance of the embedded mode: one public SPA client (PKCE, refresh tokens),
 * JWT access tokens for the portal API resolved from the requested `api://…` scope (resource
 * indicators), automatic consent, Entra-like claims, and the provider's own pages restyled.
 */
export function createProvider(opts: {
  settings: EmbeddedIdpSettings;
  db: Kysely<Database>;
  secrets: IdpSecrets;
  log: FastifyBaseLogger;
  /** Roles from the directory (SCIM) added to each account's own. */
  directoryRoles?: DirectoryRoles;
  /**
   * Whether the account may hold a session and renew its tokens now (not disabled, not locked out).
   * Asked whenever the provider loads the account: for a refresh grant, a code exchange and a silent
   * renewal through the session cookie, so a lock ends what was issued before.
   */
  accountUsable?: (upn: string) => Promise<boolean>;
}): Provider {
  const { settings: s, db, secrets, log } = opts;
  const accounts = accountsRepository(db, opts.directoryRoles);
  const scopeName = apiScopeName(s.apiScope, s.audience);
  // The resource server answers to the short name and to the full `api://…/name` string MSAL sends
  // (and under which MSAL caches the token it gets back).
  const resourceScopes = [...new Set([scopeName, s.apiScope])].join(' ');
  const urls: PageUrls = { stylesheet: s.stylesheet, portal: s.publicUrl, serviceDesk: s.serviceDesk ?? null };
  const requestsApi = (scope: unknown) =>
    typeof scope === 'string' && scope.split(' ').some((v) => v === s.apiScope || v.startsWith(`${s.audience}/`));

  const configuration: Configuration = {
    adapter: createAdapterClass(db),
    jwks: { keys: secrets.signingKeys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: {
      keys: secrets.cookieKeys,
      names: { session: '_idp_session', interaction: '_idp_interaction', resume: '_idp_resume' },
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    clients: [
      {
        client_id: s.clientId,
        client_name: PORTAL_NAME,
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [s.publicUrl, `${s.publicUrl}auth-bridge.html`],
        post_logout_redirect_uris: [`${s.publicUrl}loggedout`],
      },
    ],
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: [...IDP_SCOPES],
    claims: {
      // oidc-provider's defaults (only released when asked for), then the scopes.
      acr: null,
      auth_time: null,
      iss: null,
      sid: null,
      // `amr` of the sign-in (['pwd'] now, with 'mfa' once a second factor is added) in every ID token.
      openid: ['sub', 'amr', ...IDENTITY_CLAIMS],
      profile: ['given_name', 'family_name', 'name', 'preferred_username', 'upn'],
      email: ['email'],
    },
    conformIdTokenClaims: false,
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) ?? false,

    async findAccount(_ctx, sub) {
      const account = await accounts.findById(sub);
      if (!account) return undefined;
      // oidc-provider answers an unknown account with invalid_grant (refresh, code) or a new sign-in (session).
      if (opts.accountUsable && !(await opts.accountUsable(account.username.toLowerCase()))) return undefined;
      return {
        accountId: account.id,
        claims: () => ({ sub: account.id, ...identityClaims(account) }),
      };
    },

    async extraTokenClaims(ctx, token) {
      const accountId = 'accountId' in token ? token.accountId : undefined;
      if (typeof accountId !== 'string') return undefined;
      const account = await accounts.findById(accountId);
      if (!account) return undefined;
      const source = ctx.oidc.entities.AuthorizationCode ?? ctx.oidc.entities.RotatedRefreshToken ?? ctx.oidc.entities.RefreshToken;
      const granted = typeof token.scope === 'string' ? token.scope.split(' ') : [];
      // The sign-in session the token belongs to (stable across refreshes of that sign-in): the API binds
      // step-ups and other grants to it, so another sign-in of the same person does not inherit them.
      const sessionUid = 'sessionUid' in token && typeof token.sessionUid === 'string' ? token.sessionUid : undefined;
      return {
        ...identityClaims(account),
        ...(source?.amr ? { amr: source.amr } : {}),
        ...(sessionUid ? { sid: sessionUid } : {}),
        // Entra's `scp`: the API scopes granted, by their short names.
        scp: [...new Set(granted.map((v) => apiScopeName(v, s.audience)))].join(' ') || undefined,
      };
    },

    async loadExistingGrant(ctx) {
      const { oidc } = ctx;
      const client = oidc.client;
      const accountId = oidc.session?.accountId;
      if (!client || !accountId) return undefined;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(client.clientId);
      let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      if (!grant || grant.accountId !== accountId || grant.clientId !== client.clientId) {
        grant = new oidc.provider.Grant({ accountId, clientId: client.clientId });
      }
      // Automatic consent: the portal is the only client and first-party.
      const oidcScopes = [...oidc.requestParamOIDCScopes];
      if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(' '));
      for (const [indicator, server] of Object.entries(oidc.resourceServers ?? {})) {
        if (server.scope) grant.addResourceScope(indicator, server.scope);
      }
      await grant.save();
      return grant;
    },

    issueRefreshToken: async (_ctx, client) => client.clientId === s.clientId && client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => true,

    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // MSAL sends no `resource`: requesting the API's scope selects the API.
        defaultResource: async (ctx, _client, oneOf) => {
          if (oneOf) return oneOf.includes(s.audience) ? s.audience : oneOf;
          return requestsApi(ctx.oidc.params?.scope) ? s.audience : undefined;
        },
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resourceIndicator) => {
          if (resourceIndicator !== s.audience) throw new errors.InvalidTarget();
          return {
            scope: resourceScopes,
            audience: s.audience,
            accessTokenTTL: IDP_TTL.accessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: SIGNING_ALG } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = logoutPage(urls, form);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = loggedOutPage(urls);
        },
      },
    },

    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? IDP_TTL.accessToken,
      AuthorizationCode: IDP_TTL.authorizationCode,
      IdToken: IDP_TTL.idToken,
      // A rotated refresh token inherits what is left of its predecessor: 12 h from sign-in, not from the last refresh.
      RefreshToken: (ctx) => {
        const remaining = ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL;
        return typeof remaining === 'number' ? Math.max(1, remaining) : IDP_TTL.refreshToken;
      },
      Session: IDP_TTL.session,
      Interaction: IDP_TTL.interaction,
      Grant: IDP_TTL.grant,
    },

    interactions: {
      url: (_ctx, interaction) => `${s.mountPath}/interaction/${interaction.uid}`,
    },

    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = providerErrorPage(urls, out);
    },
  };

  const provider = new Provider(s.issuer, configuration);

  // Errors are answered by the provider itself; log them here instead of Koa's console output.
  provider.on('server_error', (ctx, err) => {
    if (!isDatabaseUnavailable(err)) return log.error({ err }, 'identity provider: server error');
    (ctx.state as { databaseUnavailable?: boolean }).databaseUnavailable = true;
    log.warn({ cause: err.message }, 'identity provider: database unavailable');
  });
  // An outage is a 503 the client may retry (OAuth's temporarily_unavailable), not a 500.
  provider.use(async (ctx, next) => {
    await next();
    if (!(ctx.state as { databaseUnavailable?: boolean }).databaseUnavailable) return;
    ctx.status = 503;
    ctx.set('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    ctx.set('cache-control', 'no-store');
    if (ctx.body && typeof ctx.body === 'object' && (ctx.body as { error?: unknown }).error === 'server_error') {
      ctx.body = {
        error: 'temporarily_unavailable',
        error_description: 'the sign-in service is briefly unavailable; try again in a moment',
      };
    }
  });
  (provider as unknown as NodeJS.EventEmitter).on('error', (err: unknown) => log.error({ err }, 'identity provider: unhandled error'));
  const refused = (event: string) => (_ctx: KoaContextWithOIDC, err: errors.OIDCProviderError) =>
    log.info({ event, error: err.error, description: err.error_description }, 'identity provider: request refused');
  provider.on('authorization.error', refused('authorization.error'));
  provider.on('grant.error', refused('grant.error'));
  provider.on('end_session.error', refused('end_session.error'));
  provider.on('userinfo.error', refused('userinfo.error'));
  return provider;
}
