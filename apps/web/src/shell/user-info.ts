import type { AccountInfo } from '@azure/msal-browser';
import { API_PATHS, CLAIMS_HEADER, userInfoResponseSchema, type ClientClaims, type UserInfoResponse } from '@mfa-portal/shared';
import { underBase } from './base-path';

/** The identity-token claims the shell reads (the ones the profile call sends on), strings only. */
export function claimsFromAccount(account: Pick<AccountInfo, 'idTokenClaims' | 'username'>): ClientClaims {
  const source = (account.idTokenClaims ?? {}) as Record<string, unknown>;
  const claims: ClientClaims = {};
  for (const name of ['upn', 'email', 'given_name', 'family_name'] as const) {
    const value = source[name];
    if (typeof value === 'string') claims[name] = value;
  }
  return claims;
}

/** base64url (no padding) of the UTF-8 bytes of a string; works for any Unicode name. */
export function base64UrlEncode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Value of the claims header: base64url(JSON of {upn, email, given_name, family_name}). */
export function claimsHeaderValue(claims: ClientClaims): string {
  return base64UrlEncode(JSON.stringify(claims));
}

export type UserInfoResult =
  { kind: 'ok'; data: UserInfoResponse } | { kind: 'unauthorized' } | { kind: 'failed'; error: string } | { kind: 'aborted' };

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof DOMException && error.name === 'AbortError');
}

/**
 * GET /account/getuserinfo with the claims (as query parameters and in a header) and the access token. Never throws:
 * 200 → ok (shape checked), 401 → unauthorized, other non-OK → failed with the response text,
 * aborted → aborted (the caller ignores it).
 */
export async function fetchUserInfo(options: {
  accessToken: string;
  claims: ClientClaims;
  /** Used as userid when the ID token has no upn claim (the account's username). */
  fallbackUserId?: string;
  signal?: AbortSignal;
  basePath?: string;
  fetchImpl?: typeof fetch;
}): Promise<UserInfoResult> {
  const { accessToken, claims, signal } = options;
  const fetchImpl = options.fetchImpl ?? fetch;
  const query = new URLSearchParams({
    userid: claims.upn ?? options.fallbackUserId ?? '',
    email: claims.email ?? '',
    firstname: claims.given_name ?? '',
    lastname: claims.family_name ?? '',
  });
  try {
    const response = await fetchImpl(`${underBase(API_PATHS.userInfo, options.basePath)}?${query.toString()}`, {
      method: 'GET',
      headers: {
        Authorization: `Bearer ${accessToken}`,
        'Content-Type': 'application/json',
        [CLAIMS_HEADER]: claimsHeaderValue(claims),
      },
      cache: 'no-store',
      signal,
    });
    if (response.status === 401) return { kind: 'unauthorized' };
    const text = await response.text();
    if (!response.ok) return { kind: 'failed', error: text };
    const parsed = userInfoResponseSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return { kind: 'failed', error: `The profile answer has an unexpected shape: ${parsed.error.message}` };
    return { kind: 'ok', data: parsed.data };
  } catch (error) {
    if (isAbort(error, signal)) return { kind: 'aborted' };
    return { kind: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
}
