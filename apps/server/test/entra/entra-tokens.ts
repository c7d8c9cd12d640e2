import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type CryptoKey } from 'jose';

/**
 * Token shapes of Microsoft Entra ID, for the Entra stand-in (test code only). What the fields are and
 * when they appear follows Microsoft's "access token claims reference" and "ID token claims reference":
 *
 * - v2.0 access token (the API registration's `requestedAccessTokenVersion: 2`): `iss`
 *   `{authorityHost}/{tid}/v2.0`, `aud` the API's application (client) id, `ver: "2.0"`, `azp`,
 *   `preferred_username`, `upn` only when the optional claim `upn` is configured.
 * - v1.0 access token (the default for a new API registration): `iss` `https://sts.windows.net/{tid}/`,
 *   `aud` the App ID URI (`api://…`), `ver: "1.0"`, `appid`, `upn`, `unique_name`, `given_name`, `family_name`.
 * - both: `scp` (space-separated delegated scope values), `roles` (app role VALUES), `tid`, `oid`, `sub`
 *   (pairwise per application), `iat`, `nbf`, `exp`, `uti`, `rh`, `aio`; no `scp` in an application's
 *   own token (client credentials), which carries `roles` and `idtyp: app` (optional claim).
 * - ID token (v2.0 endpoint): `aud` the SPA's client id, `nonce`, `preferred_username`, `name`, `oid`,
 *   `tid`, `ver: "2.0"`, `login_hint`.
 */

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function newSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  // Entra's kids look like base64url thumbprints (and equal x5t).
  const kid = createHash('sha1').update(randomBytes(32)).digest('base64url');
  return { kid, privateKey, publicJwk: { ...publicJwk, kid, use: 'sig', kty: 'RSA', x5t: kid } };
}

export interface StandinIdentity {
  username: string;
  oid: string;
  givenName: string;
  familyName: string;
  roles: string[];
}

export interface AccessTokenShape {
  version: 1 | 2;
  tenantId: string;
  authorityHost: string;
  /** The SPA that asked for the token (`azp` / `appid`). */
  clientId: string;
  /** The API: its application (client) id (v2 `aud`) and App ID URI (v1 `aud`). */
  apiAppId: string;
  appIdUri: string;
  /** Short scope values for `scp`; `null` leaves `scp` out (an application's token). */
  scp: string | null;
  /** v2 tokens carry `upn` only when the optional claim is configured. */
  upnInV2: boolean;
  lifetimeSeconds: number;
}

const now = () => Math.floor(Date.now() / 1000);

/** A pairwise subject, stable per user and application, as Entra's `sub`. */
export function pairwiseSub(oid: string, appId: string): string {
  return createHash('sha256').update(`${oid}|${appId}`).digest('base64url').slice(0, 43);
}

export function v2Issuer(authorityHost: string, tenantId: string): string {
  return `${authorityHost}/${tenantId}/v2.0`;
}
export function v1Issuer(tenantId: string): string {
  return `https://sts.windows.net/${tenantId}/`;
}

/** An access token for the portal's API, shaped as Entra issues it for `shape.version`. */
export async function signAccessToken(
  key: SigningKey,
  user: StandinIdentity,
  shape: AccessTokenShape,
  overrides: Record<string, unknown> = {},
): Promise<{ token: string; exp: number; iat: number }> {
  const iat = now();
  const exp = iat + shape.lifetimeSeconds;
  const common = {
    aio: randomBytes(24).toString('base64url'),
    iat,
    nbf: iat,
    exp,
    name: `${user.givenName} ${user.familyName}`,
    oid: user.oid,
    rh: `0.${randomBytes(16).toString('base64url')}.`,
    ...(user.roles.length ? { roles: user.roles } : {}),
    ...(shape.scp === null ? {} : { scp: shape.scp }),
    sub: pairwiseSub(user.oid, shape.apiAppId),
    tid: shape.tenantId,
    uti: randomBytes(16).toString('base64url'),
  };
  const claims =
    shape.version === 2
      ? {
          aud: shape.apiAppId,
          iss: v2Issuer(shape.authorityHost, shape.tenantId),
          azp: shape.clientId,
          azpacr: '0',
          preferred_username: user.username,
          ...(shape.upnInV2 ? { upn: user.username } : {}),
          ver: '2.0',
          ...common,
        }
      : {
          aud: shape.appIdUri,
          iss: v1Issuer(shape.tenantId),
          acr: '1',
          amr: ['pwd', 'mfa'],
          appid: shape.clientId,
          appidacr: '0',
          family_name: user.familyName,
          given_name: user.givenName,
          ipaddr: '127.0.0.1',
          unique_name: user.username,
          upn: user.username,
          ver: '1.0',
          ...common,
        };
  const payload = Object.fromEntries(Object.entries({ ...claims, ...overrides }).filter(([, v]) => v !== undefined));
  const token = await new SignJWT(payload)
    .setProtectedHeader({ typ: 'JWT', alg: 'RS256', kid: key.kid, x5t: key.kid } as never)
    .sign(key.privateKey);
  return { token, exp, iat };
}

/** The ID token of the v2.0 endpoint for the SPA. */
export async function signIdToken(
  key: SigningKey,
  user: StandinIdentity,
  opts: { tenantId: string; authorityHost: string; clientId: string; nonce: string | undefined; upn: boolean; lifetimeSeconds: number },
): Promise<string> {
  const iat = now();
  return new SignJWT({
    aud: opts.clientId,
    iss: v2Issuer(opts.authorityHost, opts.tenantId),
    iat,
    nbf: iat,
    exp: iat + opts.lifetimeSeconds,
    name: `${user.givenName} ${user.familyName}`,
    ...(opts.nonce ? { nonce: opts.nonce } : {}),
    oid: user.oid,
    preferred_username: user.username,
    ...(opts.upn ? { upn: user.username } : {}),
    login_hint: Buffer.from(JSON.stringify({ oid: user.oid, tid: opts.tenantId })).toString('base64url'),
    rh: `0.${randomBytes(16).toString('base64url')}.`,
    sub: pairwiseSub(user.oid, opts.clientId),
    tid: opts.tenantId,
    uti: randomBytes(16).toString('base64url'),
    ver: '2.0',
  })
    .setProtectedHeader({ typ: 'JWT', alg: 'RS256', kid: key.kid })
    .sign(key.privateKey);
}

/**
 * A Microsoft Graph token (what the sign-in's `User.Read` yields): not for the portal, and, like the
 * real one, not meant to be validated by anyone but Graph (its header carries a `nonce`).
 */
export async function signGraphToken(
  key: SigningKey,
  user: StandinIdentity,
  tenantId: string,
  clientId: string,
  lifetimeSeconds: number,
): Promise<string> {
  const iat = now();
  return new SignJWT({
    aud: '00000003-0000-0000-c000-000000000000',
    iss: v1Issuer(tenantId),
    iat,
    nbf: iat,
    exp: iat + lifetimeSeconds,
    appid: clientId,
    oid: user.oid,
    scp: 'openid profile User.Read email',
    tid: tenantId,
    upn: user.username,
    ver: '1.0',
  })
    .setProtectedHeader({ typ: 'JWT', alg: 'RS256', kid: key.kid, nonce: randomUUID() } as never)
    .sign(key.privateKey);
}

/** `client_info` of a token response: base64url JSON of { uid, utid } (MSAL's home account id). */
export function clientInfo(oid: string, tenantId: string): string {
  return Buffer.from(JSON.stringify({ uid: oid, utid: tenantId })).toString('base64url');
}
