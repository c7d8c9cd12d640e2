import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AppConfig } from '../src/config.js';

/** A tiny cookie jar for `app.inject` (all cookies sent on every request, as paths are not modelled). */
export class CookieJar {
  private cookies = new Map<string, string>();
  store(res: LightMyRequestResponse): void {
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  expires_in: number;
  scope?: string;
}

const b64url = (b: Buffer) => b.toString('base64url');

/** Follows one redirect-bearing response; returns the Location as a path+query on the app. */
function location(res: LightMyRequestResponse): URL {
  const loc = res.headers.location;
  if (!loc || res.statusCode < 300 || res.statusCode >= 400)
    throw new Error(`expected a redirect, got ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return new URL(String(loc), 'https://localhost:8443/');
}

/** The provider sent the browser back with an OAuth error instead of a code (e.g. `access_denied`). */
export class SignInRefusedError extends Error {
  constructor(
    readonly error: string,
    readonly description: string | null,
  ) {
    super(`sign-in refused: ${error}${description ? ` (${description})` : ''}`);
  }
}

export interface SignInOptions {
  scope?: string;
  /**
   * The answer to the second-factor page (Passcode), when the provider shows it: a code, a function
   * giving one, or `'bypass'` (the default): a single-use bypass code minted for the user through the
   * app's MFA provider just before, so callers that only need a token still go through the real page.
   */
  secondFactor?: string | (() => string | Promise<string>) | 'bypass';
  /** The client address the requests come from (default: inject's 127.0.0.1). */
  remoteAddress?: string;
}

const formActionOf = (body: string) => /<form[^>]*action="([^"]+)"/i.exec(body)?.[1]?.replace(/&amp;/g, '&');

/**
 * The real authorization-code + PKCE flow of the SPA against the embedded provider, through
 * `app.inject`: authorize → login page → credentials → (second-factor page → passcode) → code →
 * token endpoint. Throws {@link SignInRefusedError} when the provider answers with an error.
 */
export async function signIn(
  app: FastifyInstance,
  config: AppConfig,
  username: string,
  password: string,
  opts: SignInOptions = {},
): Promise<Tokens> {
  if (config.idp.mode !== 'embedded') throw new Error('signIn needs the embedded provider');
  const jar = new CookieJar();
  const base = new URL(config.publicUrl);
  const https = { 'x-forwarded-proto': 'https', host: base.host };
  const get = async (url: URL | string) => {
    const u = new URL(String(url), config.publicUrl);
    const res = await app.inject({
      method: 'GET',
      url: u.pathname + u.search,
      headers: { ...https, cookie: jar.header() },
      ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
    });
    jar.store(res);
    return res;
  };
  const post = async (url: URL | string, form: Record<string, string>) => {
    const u = new URL(String(url), config.publicUrl);
    const res = await app.inject({
      method: 'POST',
      url: u.pathname + u.search,
      headers: { ...https, cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
      ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
    });
    jar.store(res);
    return res;
  };
  const secondFactor = async () => {
    const answer = opts.secondFactor ?? 'bypass';
    if (typeof answer === 'function') return answer();
    if (answer !== 'bypass') return answer;
    const minted = await app.mfa.createBypassCodes(username.trim().toLowerCase(), {
      count: 1,
      validitySeconds: 300,
      reuseCount: 1,
      replaceExisting: false,
      createdBy: 'test sign-in',
    });
    return minted.codes[0]!.code;
  };

  const verifier = b64url(randomBytes(32));
  const challenge = b64url(createHash('sha256').update(verifier).digest());
  const authorize = new URL(`${config.idp.issuer}/auth`);
  authorize.search = new URLSearchParams({
    client_id: config.idp.clientId,
    response_type: 'code',
    redirect_uri: config.publicUrl,
    scope: opts.scope ?? `openid profile offline_access user.read ${config.idp.scope}`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: b64url(randomBytes(8)),
    nonce: b64url(randomBytes(8)),
  }).toString();

  let res = await get(authorize);
  const interaction = location(res);
  res = await get(interaction);
  if (res.statusCode !== 200) throw new Error(`login page answered ${res.statusCode}`);
  const action = formActionOf(res.body);
  if (!action) throw new Error('no login form on the interaction page');
  res = await post(action, { username, password });
  // Follow redirects (and answer the second-factor page once) until the provider sends us back to the SPA.
  let answered = false;
  let next: URL | undefined;
  for (let i = 0; i < 8; i++) {
    if (res.statusCode === 200 && /name="passcode"/.test(res.body) && !answered) {
      answered = true;
      // The passcode form, wherever the person's default sign-in method puts it on the page.
      res = await post(/<form[^>]*action="([^"]+\/verify)"/i.exec(res.body)![1]!.replace(/&amp;/g, '&'), {
        passcode: await secondFactor(),
      });
      continue;
    }
    next = location(res);
    if (`${next.origin}${next.pathname}` === config.publicUrl) break;
    res = await get(next);
  }
  if (!next || `${next.origin}${next.pathname}` !== config.publicUrl)
    throw new Error(`the provider never sent the browser back (last ${next?.href})`);
  const error = next.searchParams.get('error');
  if (error) throw new SignInRefusedError(error, next.searchParams.get('error_description'));
  const code = next.searchParams.get('code');
  if (!code) throw new Error(`no authorization code: ${next.toString()}`);
  const tokenRes = await app.inject({
    method: 'POST',
    url: `${new URL(config.idp.issuer).pathname}/token`,
    headers: { ...https, 'content-type': 'application/x-www-form-urlencoded', origin: base.origin },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: config.publicUrl,
      client_id: config.idp.clientId,
      code_verifier: verifier,
    }).toString(),
  });
  if (tokenRes.statusCode !== 200) throw new Error(`token endpoint answered ${tokenRes.statusCode}: ${tokenRes.body}`);
  return tokenRes.json() as Tokens;
}
