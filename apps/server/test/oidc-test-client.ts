import { createHash, randomBytes } from 'node:crypto';
import https from 'node:https';
import type { FastifyInstance } from 'fastify';

/**
 * Test support: a minimal browser (cookie jar with paths, redirects by hand) and the SPA's OAuth
 * moves (authorize with PKCE, redeem a code, refresh), over `app.inject` or a real TLS socket.
 * Requests carry the public URL's Host, as a browser on https://localhost:8443/ would.
 */

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface HttpRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

export type Transport = (req: HttpRequest) => Promise<HttpResponse>;

export function injectTransport(app: FastifyInstance): Transport {
  return async ({ method, url, headers, body }) => {
    const res = await app.inject({
      method: method as 'GET' | 'POST',
      url: url.pathname + url.search,
      headers: { host: url.host, ...headers },
      ...(body !== undefined ? { payload: body } : {}),
    });
    const out: HttpResponse['headers'] = {};
    for (const [name, value] of Object.entries(res.headers)) out[name] = typeof value === 'number' ? String(value) : value;
    return { status: res.statusCode, headers: out, body: res.body };
  };
}

/** Connects to 127.0.0.1:port whatever the URL's host (the certificate is self-signed). */
export function tlsTransport(port: number): Transport {
  return ({ method, url, headers, body }) =>
    new Promise((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port,
          servername: 'localhost',
          rejectUnauthorized: false,
          method,
          path: url.pathname + url.search,
          headers: { host: url.host, ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
}

interface StoredCookie {
  value: string;
  path: string;
}

export class TestBrowser {
  private readonly cookies = new Map<string, StoredCookie>();

  constructor(private readonly transport: Transport) {}

  private cookieHeader(url: URL): string {
    return [...this.cookies]
      .filter(([, c]) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private store(res: HttpResponse): void {
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const path =
        attrs
          .map((a) => a.trim())
          .find((a) => /^path=/i.test(a))
          ?.slice(5) ?? '/';
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
  }

  /** The same browser (same cookies) talking to another server instance. */
  withTransport(transport: Transport): TestBrowser {
    const other = new TestBrowser(transport);
    for (const [name, cookie] of this.cookies) other.cookies.set(name, { ...cookie });
    return other;
  }

  cookieNames(): string[] {
    return [...this.cookies.keys()];
  }

  async request(
    method: string,
    url: URL | string,
    opts: { form?: Record<string, string>; headers?: Record<string, string>; body?: string } = {},
  ): Promise<HttpResponse> {
    const u = new URL(String(url));
    const headers: Record<string, string> = { ...opts.headers };
    const cookie = this.cookieHeader(u);
    if (cookie) headers.cookie = cookie;
    // A raw body (with its content-type in `headers`), or a form.
    let body: string | undefined = opts.body;
    if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(opts.form).toString();
    }
    const res = await this.transport({ method, url: u, headers, body });
    this.store(res);
    return res;
  }

  get(url: URL | string): Promise<HttpResponse> {
    return this.request('GET', url);
  }

  post(url: URL | string, form: Record<string, string>, headers?: Record<string, string>): Promise<HttpResponse> {
    return this.request('POST', url, { form, ...(headers ? { headers } : {}) });
  }
}

export function location(res: HttpResponse, base: string): URL {
  const loc = res.headers.location;
  if (res.status < 300 || res.status >= 400 || typeof loc !== 'string') {
    throw new Error(`expected a redirect, got ${res.status}: ${res.body.slice(0, 400)}`);
  }
  return new URL(loc, base);
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export interface Client {
  issuer: string;
  clientId: string;
  redirectUri: string;
}

export function authorizeUrl(
  client: Client,
  opts: { scope: string; challenge: string; prompt?: string; state?: string; nonce?: string },
): URL {
  const url = new URL(`${client.issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: client.clientId,
    response_type: 'code',
    redirect_uri: client.redirectUri,
    scope: opts.scope,
    code_challenge: opts.challenge,
    code_challenge_method: 'S256',
    response_mode: 'query',
    state: opts.state ?? randomBytes(8).toString('base64url'),
    nonce: opts.nonce ?? randomBytes(8).toString('base64url'),
    ...(opts.prompt ? { prompt: opts.prompt } : {}),
  }).toString();
  return url;
}

/** Follows redirects until one leaves for the client's redirect URI; returns that URL. */
export async function followToClient(browser: TestBrowser, res: HttpResponse, client: Client, base: string): Promise<URL> {
  let next = location(res, base);
  for (let i = 0; i < 6; i++) {
    if (`${next.origin}${next.pathname}` === client.redirectUri) return next;
    next = location(await browser.get(next), base);
  }
  throw new Error(`too many redirects, last ${next.href}`);
}

export function formAction(html: string): string | undefined {
  return /<form[^>]*\saction="([^"]+)"/i.exec(html)?.[1]?.replace(/&amp;/g, '&');
}

/** The passcode form's action on the second-factor page, wherever the person's default method puts it. */
export function verifyFormAction(html: string): string | undefined {
  return /<form[^>]*\saction="([^"]+\/verify)"/i.exec(html)?.[1]?.replace(/&amp;/g, '&');
}

export interface TokenResponse {
  access_token: string;
  id_token?: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
  scope?: string;
}

export async function tokenRequest(browser: TestBrowser, client: Client, form: Record<string, string>): Promise<HttpResponse> {
  return browser.post(`${client.issuer}/token`, { client_id: client.clientId, ...form }, { origin: new URL(client.redirectUri).origin });
}

/** True when `res` sends the browser to an interaction page of the provider (login or second factor). */
export function isInteractionRedirect(res: HttpResponse, base: string): boolean {
  if (res.status < 300 || res.status >= 400 || typeof res.headers.location !== 'string') return false;
  return /^\/[^?]*\/interaction\/[A-Za-z0-9_-]+$/.test(location(res, base).pathname);
}

/**
 * After the password: when the provider asks for the second factor (a redirect to the interaction
 * page, which then shows the Passcode form), submits `code()`; returns the page and the answer to the
 * code. `page` is undefined when no second factor was asked for (and `answer` is the password's).
 */
export async function answerSecondFactor(
  browser: TestBrowser,
  afterPassword: HttpResponse,
  code: () => string | Promise<string>,
  base: string,
): Promise<{ page?: HttpResponse; answer: HttpResponse }> {
  if (!isInteractionRedirect(afterPassword, base)) return { answer: afterPassword };
  const url = location(afterPassword, base);
  const page = await browser.get(url);
  const action = verifyFormAction(page.body);
  if (page.status !== 200 || !action?.endsWith('/verify'))
    throw new Error(`no second-factor form: ${page.status} ${page.body.slice(0, 300)}`);
  return { page, answer: await browser.post(new URL(action, url), { passcode: await code() }) };
}
