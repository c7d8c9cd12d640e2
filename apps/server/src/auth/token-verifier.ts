import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { createHash } from 'node:crypto';
import { AppError } from '../lib/errors.js';
import { ReadCache } from '../lib/read-cache.js';

/** Who is calling, from a verified access token. */
export interface Caller {
  subject: string;
  upn: string;
  email: string;
  givenName: string;
  familyName: string;
  name: string;
  roles: string[];
  /** Authentication methods (e.g. ['pwd', 'mfa']), when the identity provider says. */
  amr: string[];
  tokenId: string | undefined;
  issuedAt: number | undefined;
  /** The token's expiry (`exp`, seconds since the epoch). */
  expiresAt?: number;
  /**
   * The sign-in session this token belongs to, as an opaque digest: a step-up, an enrolment-pass
   * redemption or a helpdesk verification counts only for the session that made it. From the token's
   * `sid` claim when the identity provider writes one (the embedded provider always does; Entra when the
   * `sid` optional claim is configured for access tokens), otherwise from the token itself (`uti`/`jti`,
   * or the whole token), so that a grant then belongs to that one token and is never shared.
   */
  session: string;
}

export type TokenVerifier = (bearer: string | undefined) => Promise<Caller>;

export interface TokenVerifierOptions {
  /** One or more accepted issuers (Entra issues v1 and v2 issuer strings). */
  issuers: string[];
  audience: string | string[];
  jwks: JWTVerifyGetKey;
  /**
   * The delegated scope a user's token must carry in `scp` (space-separated short names, as Entra
   * writes them: `access_as_user` for `api://…/access_as_user`; see `scopeValueOf`). A token without
   * `scp` (an application's own token, `idtyp: app`) is refused.
   */
  requiredScope: string;
  clockToleranceSeconds?: number;
}

/**
 * The value Entra (and the embedded provider) writes into `scp` for a configured scope: its last path
 * segment (`api://mfa-portal/access_as_user` → `access_as_user`); a bare name stays as it is.
 */
export function scopeValueOf(scope: string): string {
  return scope.slice(scope.lastIndexOf('/') + 1);
}

/** JWKS from the issuer's published keys (production) or the embedded provider's own key set. */
export function remoteJwks(url: string): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(url), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
}
export function localJwks(jwks: JSONWebKeySet): JWTVerifyGetKey {
  return createLocalJWKSet(jwks);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strArray = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * Validates a bearer access token the same way in both modes: signature against the issuer's JWKS,
 * issuer, audience, expiry and not-before (jose checks exp/nbf), RS256/PS256/ES256 only.
 */
export function createTokenVerifier(opts: TokenVerifierOptions): TokenVerifier {
  return async (authorization) => {
    const match = /^Bearer\s+([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+)\s*$/i.exec(authorization ?? '');
    if (!authorization) throw unauthorized('auth.token_missing');
    if (!match?.[1]) throw unauthorized('auth.token_invalid');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(match[1], opts.jwks, {
        issuer: opts.issuers,
        audience: opts.audience,
        algorithms: ['RS256', 'PS256', 'ES256'],
        clockTolerance: opts.clockToleranceSeconds ?? 5,
        requiredClaims: ['exp', 'iat', 'sub'],
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthorized('auth.token_expired');
      throw unauthorized('auth.token_invalid');
    }
    checkDelegatedScope(payload, opts.requiredScope);
    // Entra v1 tokens carry `upn`; v2 tokens carry it when the optional claim is configured,
    // otherwise `preferred_username` holds the same sign-in name.
    const upn = str(payload.upn) || str(payload.preferred_username);
    if (!upn) throw unauthorized('auth.token_invalid');
    const sid = str(payload.sid);
    const tokenRef = str(payload.uti) || str(payload.jti) || match[1];
    return {
      subject: str(payload.sub),
      upn: upn.toLowerCase(),
      email: str(payload.email) || upn.toLowerCase(),
      givenName: str(payload.given_name),
      familyName: str(payload.family_name),
      name: str(payload.name),
      roles: strArray(payload.roles),
      amr: strArray(payload.amr),
      tokenId: str(payload.jti) || str(payload.uti) || undefined,
      issuedAt: payload.iat,
      ...(payload.exp !== undefined ? { expiresAt: payload.exp } : {}),
      session: sid ? sessionKeyOf('sid', `${str(payload.iss)}|${sid}`) : sessionKeyOf('token', `${str(payload.iss)}|${tokenRef}`),
    };
  };
}

/**
 * The opaque key a grant is stored under: a digest, so that neither a session id nor a token is kept
 * in the database or the audit log. The prefix says which kind of binding it is.
 */
export function sessionKeyOf(kind: 'sid' | 'token', value: string): string {
  return `${kind}:${createHash('sha256').update(value).digest('base64url').slice(0, 32)}`;
}

/**
 * Remembers tokens it has verified: a signed-in user's every API call carries the same access
 * token, and checking its signature again each time is most of a light request's cost. A token is
 * remembered by its SHA-256 digest until it expires (`exp`, never later) and for at most `maxAgeMs`;
 * a refused token is never remembered, so it is checked again each time. The answer is frozen: callers
 * share it. What a verified token says cannot change; whether its session was revoked is asked on each
 * call, after this (withSessionRevocation).
 */
export function withVerifiedTokenCache(
  verify: TokenVerifier,
  opts: { maxEntries?: number; maxAgeMs?: number; now?: () => number; onLookup?: (hit: boolean) => void } = {},
): TokenVerifier {
  const maxAgeMs = opts.maxAgeMs ?? 5 * 60_000;
  const kept = new ReadCache<Caller>({
    name: 'token',
    maxEntries: opts.maxEntries ?? 10_000,
    // Until `exp` (never later), for `maxAgeMs` at most; a token without `exp` is not kept.
    ttlMs: (caller, now) => (caller.expiresAt === undefined ? 0 : Math.min(caller.expiresAt * 1000 - now, maxAgeMs)),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.onLookup ? { onLookup: opts.onLookup } : {}),
  });
  // Nothing outside changes what a verified token says: no change feed to wait for.
  kept.setLive(true);
  return async (authorization) => {
    if (!authorization) return verify(authorization);
    return kept.get(createHash('sha256').update(authorization).digest('base64url'), async () => {
      const caller = await verify(authorization);
      return Object.freeze({ ...caller, roles: Object.freeze([...caller.roles]), amr: Object.freeze([...caller.amr]) }) as Caller;
    });
  };
}

/**
 * Microsoft's rule for a protected API: a delegated (user) token carries the API's scope in `scp`; an
 * application token (client credentials) has no `scp`, only `roles`, and `idtyp: app` when that optional
 * claim is on. The portal's API acts for a signed-in person only, so the latter is refused.
 */
function checkDelegatedScope(payload: JWTPayload, requiredScope: string): void {
  const scp = payload.scp;
  if (payload.idtyp === 'app' || typeof scp !== 'string' || scp.trim() === '') {
    throw forbidden('auth.app_token_not_allowed', 'insufficient_scope');
  }
  if (!scp.split(' ').includes(requiredScope)) throw forbidden('auth.scope_missing', 'insufficient_scope', requiredScope);
}

function forbidden(code: 'auth.scope_missing' | 'auth.app_token_not_allowed', error: string, scope?: string): AppError {
  return new AppError({
    code,
    headers: { 'www-authenticate': `Bearer error="${error}"${scope ? `, scope="${scope}"` : ''}` },
  });
}

function unauthorized(code: 'auth.token_missing' | 'auth.token_invalid' | 'auth.token_expired'): AppError {
  return new AppError({
    code,
    headers: {
      'www-authenticate': code === 'auth.token_missing' ? 'Bearer' : `Bearer error="invalid_token"`,
    },
  });
}
