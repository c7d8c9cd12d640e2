import { createHash, randomBytes } from 'node:crypto';
import https from 'node:https';
import type { EntraStandin } from './entra-standin.js';

/** What a browser does against the Entra stand-in, in Node (tests of the stand-in and of the server). */

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request trusting the stand-in's own certificate. */
export function request(
  standin: EntraStandin,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL(path, standin.url),
      { method: init.method ?? 'GET', headers: init.headers, ca: standin.caPem },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The parameters the stand-in sent back to the redirect URI (fragment or query). */
export function redirectParams(location: string | string[] | undefined): URLSearchParams {
  const url = new URL(String(location));
  return new URLSearchParams(url.hash ? url.hash.slice(1) : url.search);
}

export interface SignInResult {
  code: string;
  verifier: string;
  cookie: string;
}

/** Interactive sign-in through the form: the authorization code, its PKCE verifier, the session cookie. */
export async function signInForCode(
  standin: EntraStandin,
  opts: { username: string; password: string; redirectUri: string; scope?: string; nonce?: string },
): Promise<SignInResult | { error: URLSearchParams }> {
  const { verifier, challenge } = pkcePair();
  const params = new URLSearchParams({
    client_id: standin.clientId,
    redirect_uri: opts.redirectUri,
    response_type: 'code',
    response_mode: 'fragment',
    scope: opts.scope ?? `openid profile offline_access User.Read ${standin.apiScope}`,
    state: 'state-1',
    nonce: opts.nonce ?? 'nonce-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    login: opts.username,
    passwd: opts.password,
  });
  const res = await request(standin, `/${standin.tenantId}/oauth2/v2.0/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: params.toString(),
  });
  if (res.status !== 302) throw new Error(`sign-in answered ${res.status}: ${res.body}`);
  const back = redirectParams(res.headers.location);
  if (back.get('error')) return { error: back };
  const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0]!;
  return { code: back.get('code')!, verifier, cookie };
}

export async function tokenRequest(
  standin: EntraStandin,
  form: Record<string, string>,
  origin: string | null = 'https://localhost:9801',
): Promise<RawResponse & { json: Record<string, unknown> }> {
  const res = await request(standin, `/${standin.tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
    body: new URLSearchParams({ client_id: standin.clientId, ...form }).toString(),
  });
  return { ...res, json: JSON.parse(res.body) as Record<string, unknown> };
}
