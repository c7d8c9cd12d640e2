import { createHash, randomBytes, randomUUID } from 'node:crypto';
import https from 'node:https';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import {
  clientInfo,
  newSigningKey,
  signAccessToken,
  signGraphToken,
  signIdToken,
  v1Issuer,
  v2Issuer,
  type AccessTokenShape,
  type SigningKey,
  type StandinIdentity,
} from './entra-tokens.js';

/**
 * A stand-in for Microsoft Entra ID (test code only: this machine cannot reach Entra). One tenant, one
 * single-page application and one API registration, served over HTTPS on loopback with its own
 * self-signed certificate, at Entra's paths:
 *
 *   GET      /{tenant}/v2.0/.well-known/openid-configuration
 *   GET      /{tenant}/discovery/v2.0/keys
 *   GET/POST /{tenant}/oauth2/v2.0/authorize   authorization code + PKCE (S256 only), a sign-in form,
 *                                              prompt=none answered from the session cookie
 *   POST     /{tenant}/oauth2/v2.0/token       authorization_code (PKCE checked) and refresh_token grants,
 *                                              cross-origin only as for an SPA registration
 *   GET      /{tenant}/oauth2/v2.0/logout      ends the session, redirects to post_logout_redirect_uri
 *
 * It checks what Entra checks (registered redirect URIs, PKCE, single use of codes, the SPA's
 * cross-origin redemption, the tenant in the path) and answers errors as Entra does: to the redirect
 * URI as `error` + `error_description` (`AADSTS…`) when it can, as JSON with `error_codes` from the
 * token endpoint. Access tokens are v1- or v2-shaped (entra-tokens.ts) with `scp`, `roles` (app role
 * values), `tid` and `oid`. Tests roll the signing key over, take the key endpoint down, make a user's
 * sign-in fail with consent_required / not assigned / interaction_required, and read what was issued.
 */

export type Refusal = 'consent_required' | 'not_assigned' | 'interaction_required';

export interface StandinUser extends StandinIdentity {
  password: string;
  /** Every sign-in of this user is refused so (set with `refuse`). */
  refusal: Refusal | null;
}

export interface EntraStandinOptions {
  tenantId?: string;
  /** A verified domain of the tenant: its paths answer under it too, naming the tenant by GUID. */
  domain?: string;
  /** The SPA registration (MSAL's client id). */
  clientId?: string;
  /** The API registration: application id (v2 `aud`) and App ID URI (v1 `aud`). */
  apiAppId?: string;
  appIdUri?: string;
  /** The delegated scope the API exposes. */
  scopeName?: string;
  /** `requestedAccessTokenVersion` of the API registration (Entra's default for a new API is 1). */
  accessTokenVersion?: 1 | 2;
  /** The optional claim `upn` is configured (v2 tokens carry it only then). */
  upnInV2?: boolean;
  accessTokenLifetimeSeconds?: number;
  /** The SPA's registered redirect URIs (post_logout_redirect_uri must be one too). */
  redirectUris?: string[];
  port?: number;
  /**
   * When set, the journeys' control routes answer under `/_control/` to requests carrying this token
   * in `x-standin-control` (never part of Entra; see `control`).
   */
  controlToken?: string;
}

interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  scope: string[];
  state: string | undefined;
  nonce: string | undefined;
  codeChallenge: string;
  responseMode: 'query' | 'fragment';
}

interface CodeGrant extends AuthorizeRequest {
  username: string;
  expiresAt: number;
  redeemed: boolean;
}

interface RefreshGrant {
  username: string;
  clientId: string;
  revoked: boolean;
}

/** A token the stand-in issued, for the tests to inspect. */
export interface IssuedToken {
  username: string;
  kind: 'api' | 'graph';
  grant: 'authorization_code' | 'refresh_token';
  iat: number;
  exp: number;
}

const AADSTS: Record<number, string> = {
  50011:
    'The redirect URI specified in the request does not match the redirect URIs configured for the application. Make sure the redirect URI sent in the request matches one added to your application in the Azure portal.',
  50058: 'A silent sign-in request was sent but no user is signed in.',
  50076:
    'Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access the application.',
  50105:
    "Your administrator has configured the application to block users unless they are specifically granted ('assigned') access to the application. The signed in user is blocked because they are not a direct member of a group with access, nor had access directly assigned by an administrator. Please contact your administrator to assign access to this application.",
  50126: 'Error validating credentials due to invalid username or password.',
  50173:
    'The provided grant has expired due to it being revoked, a fresh auth token is needed. The user might have changed or reset their password.',
  54005: 'OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.',
  65001:
    'The user or administrator has not consented to use the application. Send an interactive authorization request for this user and resource.',
  70008:
    'The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.',
  90014: 'The required field is missing from the credential. Ensure that you have all the necessary parameters for the login request.',
  90002: 'Tenant not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.',
  700016:
    'Application was not found in the directory. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant.',
  501481: 'The Code_Verifier does not match the code_challenge supplied in the authorization request.',
  9002325: 'Proof Key for Code Exchange is required for cross-origin authorization code redemption.',
  9002327: "Tokens issued for the 'Single-Page Application' client-type may only be redeemed via cross-origin requests.",
  70011: 'The provided request must include a valid scope. The provided value for the input parameter scope is not valid.',
};

function describe(code: number): string {
  return `AADSTS${code}: ${AADSTS[code] ?? 'Error.'}\r\nTrace ID: ${randomUUID()}\r\nCorrelation ID: ${randomUUID()}\r\nTimestamp: ${new Date().toISOString().replace('T', ' ').slice(0, 19)}Z`;
}

const REFUSALS: Record<Refusal, { error: string; code: number; suberror?: string }> = {
  consent_required: { error: 'consent_required', code: 65001, suberror: 'consent_required' },
  // Entra sends the assignment refusal with `interaction_required` (and the AADSTS50105 description).
  not_assigned: { error: 'interaction_required', code: 50105 },
  interaction_required: { error: 'interaction_required', code: 50076, suberror: 'basic_action' },
};

const b64urlSha256 = (s: string) => createHash('sha256').update(s).digest('base64url');
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class EntraStandin {
  readonly tenantId: string;
  readonly domain: string;
  readonly clientId: string;
  readonly apiAppId: string;
  readonly appIdUri: string;
  readonly scopeName: string;
  accessTokenVersion: 1 | 2;
  upnInV2: boolean;
  accessTokenLifetimeSeconds: number;
  redirectUris: string[];
  /** Origin of the stand-in, i.e. ENTRA_AUTHORITY_HOST. */
  url = '';
  caPem = '';
  readonly users = new Map<string, StandinUser>();
  readonly issued: IssuedToken[] = [];
  /** Published keys (the JWKS) and the one that signs. */
  keys: SigningKey[] = [];
  signingKey!: SigningKey;
  keysAvailable = true;

  private server: https.Server | null = null;
  private readonly port: number;
  private readonly controlToken: string | undefined;
  private readonly sessions = new Map<string, string>();
  private readonly codes = new Map<string, CodeGrant>();
  private readonly refreshTokens = new Map<string, RefreshGrant>();

  constructor(options: EntraStandinOptions = {}) {
    this.tenantId = options.tenantId ?? randomUUID();
    this.domain = options.domain ?? 'contoso-standin.onmicrosoft.com';
    this.clientId = options.clientId ?? randomUUID();
    this.apiAppId = options.apiAppId ?? randomUUID();
    this.appIdUri = options.appIdUri ?? `api://${this.apiAppId}`;
    this.scopeName = options.scopeName ?? 'access_as_user';
    this.accessTokenVersion = options.accessTokenVersion ?? 2;
    this.upnInV2 = options.upnInV2 ?? false;
    this.accessTokenLifetimeSeconds = options.accessTokenLifetimeSeconds ?? 3600;
    this.redirectUris = options.redirectUris ?? [];
    this.port = options.port ?? 0;
    this.controlToken = options.controlToken;
  }

  /** `ENTRA_API_SCOPE` for the portal: the exposed scope under the App ID URI. */
  get apiScope(): string {
    return `${this.appIdUri}/${this.scopeName}`;
  }
  /** `ENTRA_API_AUDIENCE`: what `aud` holds for the configured token version. */
  get apiAudience(): string {
    return this.accessTokenVersion === 2 ? this.apiAppId : this.appIdUri;
  }
  get v2Issuer(): string {
    return v2Issuer(this.url, this.tenantId);
  }
  get v1Issuer(): string {
    return v1Issuer(this.tenantId);
  }

  async start(): Promise<this> {
    this.signingKey = await newSigningKey();
    this.keys = [this.signingKey];
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    } as Parameters<typeof generate>[1]);
    this.caPem = pems.cert;
    this.server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        console.error('entra stand-in:', err);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.url = `https://localhost:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  // --- directory and faults (tests) ---

  addUser(input: { username: string; givenName: string; familyName: string; roles?: string[]; password: string }): StandinUser {
    const user: StandinUser = {
      username: input.username.toLowerCase(),
      oid: randomUUID(),
      givenName: input.givenName,
      familyName: input.familyName,
      roles: input.roles ?? [],
      password: input.password,
      refusal: null,
    };
    this.users.set(user.username, user);
    return user;
  }

  user(username: string): StandinUser {
    const user = this.users.get(username.toLowerCase());
    if (!user) throw new Error(`no stand-in user ${username}`);
    return user;
  }

  /** Refuse this user's sign-ins (and refresh grants) as Entra would, or stop refusing (null). */
  refuse(username: string, refusal: Refusal | null): void {
    this.user(username).refusal = refusal;
  }

  /**
   * Key rollover: a new key is published and signs from now on; the old one stays published
   * (`retireOld` false, Entra's overlap) or is withdrawn at once (`retireOld` true, an emergency rollover).
   */
  async rolloverKeys(opts: { retireOld?: boolean } = {}): Promise<SigningKey> {
    const next = await newSigningKey();
    this.keys = opts.retireOld ? [next] : [...this.keys, next];
    this.signingKey = next;
    return next;
  }

  /** Refresh tokens of the user no longer work (password reset, "revoke sessions"). */
  revokeRefreshTokens(username: string): void {
    for (const grant of this.refreshTokens.values()) if (grant.username === username.toLowerCase()) grant.revoked = true;
  }

  /** An access token for the portal API as Entra would issue it now (or with claims changed). */
  async accessToken(
    username: string,
    opts: Partial<Pick<AccessTokenShape, 'version' | 'scp' | 'upnInV2' | 'lifetimeSeconds'>> & {
      claims?: Record<string, unknown>;
      key?: SigningKey;
    } = {},
  ): Promise<string> {
    const { token } = await signAccessToken(
      opts.key ?? this.signingKey,
      this.user(username),
      { ...this.shape(this.scopeName), ...opts },
      opts.claims,
    );
    return token;
  }

  private shape(scp: string | null): AccessTokenShape {
    return {
      version: this.accessTokenVersion,
      tenantId: this.tenantId,
      authorityHost: this.url,
      clientId: this.clientId,
      apiAppId: this.apiAppId,
      appIdUri: this.appIdUri,
      scp,
      upnInV2: this.upnInV2,
      lifetimeSeconds: this.accessTokenLifetimeSeconds,
    };
  }

  // --- HTTP ---

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const origin = req.headers.origin;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': origin ?? '*',
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      });
      return void res.end();
    }
    if (url.pathname.startsWith('/_control/')) return this.control(req, res, url.pathname.slice('/_control'.length));
    const m =
      /^\/([^/]+)\/(v2\.0\/\.well-known\/openid-configuration|discovery\/v2\.0\/keys|oauth2\/v2\.0\/(authorize|token|logout))$/.exec(
        url.pathname,
      );
    if (!m) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    if (m[1] !== this.tenantId && m[1]?.toLowerCase() !== this.domain) {
      return json(res, 400, { error: 'invalid_tenant', error_description: describe(90002), error_codes: [90002] }, origin);
    }
    const body = req.method === 'POST' ? new URLSearchParams(await readBody(req)) : new URLSearchParams();
    switch (m[2]) {
      case 'v2.0/.well-known/openid-configuration':
        return json(res, 200, this.discovery(), '*');
      case 'discovery/v2.0/keys':
        if (!this.keysAvailable) return json(res, 503, { error: 'temporarily_unavailable' }, '*');
        return json(res, 200, { keys: this.keys.map((k) => ({ ...k.publicJwk, issuer: this.v2Issuer })) }, '*');
      case 'oauth2/v2.0/authorize':
        return this.authorize(req, res, req.method === 'POST' ? body : url.searchParams);
      case 'oauth2/v2.0/token':
        if (req.method !== 'POST') return json(res, 405, { error: 'invalid_request' }, origin);
        return this.token(res, body, origin);
      default:
        return this.logout(req, res, url.searchParams);
    }
  }

  /**
   * The journeys' control routes (what an administrator does in Entra while a person uses the portal):
   *   POST /users/:username/refusal  { refusal: consent_required | not_assigned | interaction_required | null }
   *   POST /users/:username/revoke   (refresh tokens revoked)
   *   GET  /users/:username/issued   [{ kind, grant, iat, exp }] of the tokens issued to them
   *   POST /keys/rollover            { retireOld?: boolean }
   */
  private async control(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    if (!this.controlToken || req.headers['x-standin-control'] !== this.controlToken) return void res.writeHead(404).end();
    const body = req.method === 'POST' ? (JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>) : {};
    const m = /^\/users\/([^/]+)\/(refusal|revoke|issued)$/.exec(path);
    try {
      if (m && req.method === 'POST' && m[2] === 'refusal') {
        const refusal = body.refusal as Refusal | null;
        if (refusal !== null && !(refusal in REFUSALS)) return json(res, 400, { error: 'unknown refusal' }, undefined);
        this.refuse(decodeURIComponent(m[1]!), refusal);
        return void res.writeHead(204).end();
      }
      if (m && req.method === 'POST' && m[2] === 'revoke') {
        this.revokeRefreshTokens(decodeURIComponent(m[1]!));
        return void res.writeHead(204).end();
      }
      if (m && req.method === 'GET' && m[2] === 'issued') {
        const username = this.user(decodeURIComponent(m[1]!)).username;
        return json(
          res,
          200,
          this.issued.filter((t) => t.username === username),
          undefined,
        );
      }
      if (path === '/keys/rollover' && req.method === 'POST') {
        await this.rolloverKeys({ retireOld: body.retireOld === true });
        return void res.writeHead(204).end();
      }
    } catch (err) {
      return json(res, 404, { error: err instanceof Error ? err.message : String(err) }, undefined);
    }
    return void res.writeHead(404).end();
  }

  private discovery() {
    const base = `${this.url}/${this.tenantId}`;
    return {
      token_endpoint: `${base}/oauth2/v2.0/token`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      jwks_uri: `${base}/discovery/v2.0/keys`,
      response_modes_supported: ['query', 'fragment', 'form_post'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      issuer: this.v2Issuer,
      request_uri_parameter_supported: false,
      userinfo_endpoint: 'https://graph.microsoft.com/oidc/userinfo',
      authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
      device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
      http_logout_supported: true,
      frontchannel_logout_supported: true,
      end_session_endpoint: `${base}/oauth2/v2.0/logout`,
      claims_supported: [
        'sub',
        'iss',
        'cloud_instance_name',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'acr',
        'nonce',
        'preferred_username',
        'name',
        'tid',
        'ver',
        'at_hash',
        'c_hash',
        'email',
      ],
      kerberos_endpoint: `${base}/kerberos`,
      tenant_region_scope: 'EU',
      cloud_instance_name: 'microsoftonline.com',
      cloud_graph_host_name: 'graph.windows.net',
      msgraph_host: 'graph.microsoft.com',
      rbac_url: 'https://pas.windows.net',
    };
  }

  private async authorize(req: http.IncomingMessage, res: http.ServerResponse, p: URLSearchParams): Promise<void> {
    const clientId = p.get('client_id') ?? '';
    const redirectUri = p.get('redirect_uri') ?? '';
    // Errors before the redirect URI is trusted are shown on Entra's own page, never sent back.
    if (clientId !== this.clientId) return page(res, 400, `AADSTS700016: ${AADSTS[700016]}`);
    if (!this.redirectUris.includes(redirectUri)) return page(res, 400, `AADSTS50011: ${AADSTS[50011]}`);
    const request: AuthorizeRequest = {
      clientId,
      redirectUri,
      scope: (p.get('scope') ?? '').split(/\s+/).filter(Boolean),
      state: p.get('state') ?? undefined,
      nonce: p.get('nonce') ?? undefined,
      codeChallenge: p.get('code_challenge') ?? '',
      responseMode: p.get('response_mode') === 'query' ? 'query' : 'fragment',
    };
    const fail = (error: string, code: number, extra: Record<string, string> = {}) =>
      redirect(res, request, { error, error_description: describe(code), error_uri: `${this.url}/error?code=${code}`, ...extra });
    if (p.get('response_type') !== 'code') return fail('unsupported_response_type', 90014);
    if (!request.codeChallenge || p.get('code_challenge_method') !== 'S256') return fail('invalid_request', 9002325);
    if (!request.scope.includes('openid')) return fail('invalid_scope', 70011);

    const sessionUser = this.sessionUser(req);
    const prompt = p.get('prompt');
    let username: string | null = null;
    if (req.method === 'POST') {
      // The sign-in form was submitted.
      const user = this.users.get((p.get('login') ?? '').trim().toLowerCase());
      if (!user || user.password !== (p.get('passwd') ?? '')) return this.loginForm(res, p, 'Your account or password is incorrect.');
      username = user.username;
      const sid = randomBytes(24).toString('base64url');
      this.sessions.set(sid, username);
      res.setHeader('set-cookie', `ESTSAUTH=${sid}; Path=/; Secure; HttpOnly; SameSite=None`);
    } else if (prompt === 'none') {
      if (!sessionUser) return fail('login_required', 50058);
      username = sessionUser;
    } else if (sessionUser && prompt !== 'login' && prompt !== 'select_account') {
      username = sessionUser;
    } else {
      return this.loginForm(res, p);
    }

    const refusal = this.users.get(username)?.refusal;
    if (refusal) {
      const r = REFUSALS[refusal];
      return fail(r.error, r.code, r.suberror ? { suberror: r.suberror } : {});
    }
    const code = randomBytes(32).toString('base64url');
    this.codes.set(code, { ...request, username, expiresAt: Date.now() + 10 * 60_000, redeemed: false });
    const user = this.user(username);
    return redirect(res, request, { code, client_info: clientInfo(user.oid, this.tenantId), session_state: randomUUID() });
  }

  private sessionUser(req: http.IncomingMessage): string | null {
    const sid = /(?:^|;\s*)ESTSAUTH=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    return (sid && this.sessions.get(sid)) || null;
  }

  private loginForm(res: http.ServerResponse, p: URLSearchParams, problem?: string): void {
    const hidden = [...p.entries()]
      .filter(([k]) => k !== 'login' && k !== 'passwd')
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('');
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in to your account</title></head><body>
<main><h1>Sign in</h1>${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/${this.tenantId}/oauth2/v2.0/authorize">${hidden}
<label>Email, phone, or Skype <input name="login" type="email" autocomplete="username" value="${escapeHtml(p.get('login_hint') ?? '')}"></label>
<label>Password <input name="passwd" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form></main></body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  }

  private async token(res: http.ServerResponse, p: URLSearchParams, origin: string | undefined): Promise<void> {
    const fail = (status: number, error: string, code: number, extra: Record<string, unknown> = {}) =>
      json(
        res,
        status,
        {
          error,
          error_description: describe(code),
          error_codes: [code],
          timestamp: new Date().toISOString(),
          trace_id: randomUUID(),
          correlation_id: randomUUID(),
          ...extra,
        },
        origin,
      );
    if (p.get('client_id') !== this.clientId) return fail(400, 'unauthorized_client', 700016);
    // An SPA registration's codes and refresh tokens are redeemed by the browser, cross-origin, only.
    if (!origin) return fail(400, 'invalid_request', 9002327);
    const scope = (p.get('scope') ?? '').split(/\s+/).filter(Boolean);
    let username: string;
    let offline: boolean;
    let nonce: string | undefined;
    const grant = p.get('grant_type');
    if (grant === 'authorization_code') {
      const code = this.codes.get(p.get('code') ?? '');
      if (!code) return fail(400, 'invalid_grant', 70008);
      if (code.redeemed) return fail(400, 'invalid_grant', 54005);
      code.redeemed = true;
      if (code.expiresAt < Date.now()) return fail(400, 'invalid_grant', 70008);
      if (p.get('redirect_uri') !== code.redirectUri) return fail(400, 'invalid_grant', 50011);
      if (b64urlSha256(p.get('code_verifier') ?? '') !== code.codeChallenge) return fail(400, 'invalid_grant', 501481);
      username = code.username;
      offline = code.scope.includes('offline_access') || scope.includes('offline_access');
      nonce = code.nonce;
    } else if (grant === 'refresh_token') {
      const refresh = this.refreshTokens.get(p.get('refresh_token') ?? '');
      if (!refresh || refresh.clientId !== this.clientId) return fail(400, 'invalid_grant', 70008);
      if (refresh.revoked) return fail(400, 'invalid_grant', 50173);
      username = refresh.username;
      const refusal = this.user(username).refusal;
      if (refusal) {
        const r = REFUSALS[refusal];
        return fail(400, 'invalid_grant', r.code, r.suberror ? { suberror: r.suberror } : {});
      }
      offline = true;
      nonce = undefined;
    } else {
      return fail(400, 'unsupported_grant_type', 90014);
    }

    const user = this.user(username);
    // The first resource named in scope decides the token: the portal API, or Microsoft Graph.
    const apiScopes = scope.filter((s) => s.startsWith(`${this.appIdUri}/`) || s.startsWith(`api://${this.apiAppId}/`));
    const unknown = apiScopes.filter((s) => s.slice(s.lastIndexOf('/') + 1) !== this.scopeName);
    if (unknown.length) return fail(400, 'invalid_scope', 70011);
    let accessToken: string;
    let grantedScope: string;
    let exp: number;
    if (apiScopes.length) {
      const signed = await signAccessToken(this.signingKey, user, this.shape(this.scopeName));
      accessToken = signed.token;
      exp = signed.exp;
      grantedScope = this.apiScope;
      this.issued.push({ username, kind: 'api', grant, iat: signed.iat, exp });
    } else {
      accessToken = await signGraphToken(this.signingKey, user, this.tenantId, this.clientId, 3600);
      exp = Math.floor(Date.now() / 1000) + 3600;
      grantedScope = 'openid profile User.Read email';
      this.issued.push({ username, kind: 'graph', grant, iat: exp - 3600, exp });
    }
    const expiresIn = exp - Math.floor(Date.now() / 1000);
    const response: Record<string, unknown> = {
      token_type: 'Bearer',
      scope: grantedScope,
      expires_in: expiresIn,
      ext_expires_in: expiresIn,
      access_token: accessToken,
      client_info: clientInfo(user.oid, this.tenantId),
    };
    if (offline) {
      const rt = `1.${randomBytes(48).toString('base64url')}`;
      this.refreshTokens.set(rt, { username, clientId: this.clientId, revoked: false });
      response.refresh_token = rt;
      response.refresh_token_expires_in = 86_400; // SPA refresh tokens live 24 hours
    }
    response.id_token = await signIdToken(this.signingKey, user, {
      tenantId: this.tenantId,
      authorityHost: this.url,
      clientId: this.clientId,
      nonce,
      upn: this.upnInV2,
      lifetimeSeconds: 3600,
    });
    return json(res, 200, response, origin);
  }

  private logout(req: http.IncomingMessage, res: http.ServerResponse, p: URLSearchParams): void {
    const sid = /(?:^|;\s*)ESTSAUTH=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    if (sid) this.sessions.delete(sid);
    res.setHeader('set-cookie', 'ESTSAUTH=; Path=/; Secure; HttpOnly; SameSite=None; Max-Age=0');
    const target = p.get('post_logout_redirect_uri');
    if (target && this.redirectUris.includes(target)) {
      res.writeHead(302, { location: target, 'cache-control': 'no-store' });
      return void res.end();
    }
    return page(res, 200, 'You signed out of your account. It’s a good idea to close all browser windows.');
  }
}

function redirect(
  res: http.ServerResponse,
  request: Pick<AuthorizeRequest, 'redirectUri' | 'state' | 'responseMode'>,
  params: Record<string, string>,
): void {
  const values = new URLSearchParams({ ...params, ...(request.state ? { state: request.state } : {}) });
  const target = new URL(request.redirectUri);
  if (request.responseMode === 'query') for (const [k, v] of values) target.searchParams.set(k, v);
  else target.hash = values.toString();
  res.writeHead(302, { location: target.toString(), 'cache-control': 'no-store' });
  res.end();
}

function json(res: http.ServerResponse, status: number, body: unknown, allowOrigin: string | undefined): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...(allowOrigin ? { 'access-control-allow-origin': allowOrigin } : {}),
  });
  res.end(JSON.stringify(body));
}

function page(res: http.ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
    .end(`<!doctype html><html lang="en"><title>Sign in to your account</title><p>${escapeHtml(message)}</p></html>`);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      data += chunk;
      if (data.length > 64 * 1024) req.destroy();
    });
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}
