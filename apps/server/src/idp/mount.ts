import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errorMessage } from '../lib/errors.js';

/** oidc-provider refuses larger bodies itself; we only buffer the token endpoint's, up to this. */
const TOKEN_BODY_LIMIT = 56 * 1024;

export interface ProviderMountOptions {
  provider: Provider;
  /** Path of the issuer, e.g. `/idp` (no trailing slash). */
  mountPath: string;
  /** Public origin of the issuer, e.g. `https://localhost:8443`. */
  publicOrigin: string;
}

/**
 * MSAL asks for `offline_access` again when it refreshes, but a refresh token from a silent
 * (`prompt=none`) renewal does not carry it (oidc-provider drops `offline_access` unless consent is
 * prompted), and oidc-provider refuses scopes the refresh token lacks. `offline_access` means nothing
 * in a refresh request, so it is removed there. Returns the new body, or undefined when unchanged.
 */
export function stripOfflineAccessFromRefresh(body: string): string | undefined {
  const params = new URLSearchParams(body);
  if (params.get('grant_type') !== 'refresh_token') return undefined;
  const scopes = params.getAll('scope');
  if (scopes.length !== 1) return undefined;
  const requested = scopes[0]!.split(' ').filter(Boolean);
  const kept = requested.filter((s) => s !== 'offline_access');
  if (kept.length === requested.length) return undefined;
  if (kept.length) params.set('scope', kept.join(' '));
  else params.delete('scope');
  return params.toString();
}

async function readBody(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += buf.length;
    if (total > limit) return undefined;
    chunks.push(buf);
  }
  return Buffer.concat(chunks, total);
}

/**
 * A stand-in for the consumed request: the same method, URL, headers and socket (Koa reads the
 * socket for TLS and the client address), and `body` as an already-ended stream. A plain Readable,
 * not an IncomingMessage: ending one of those that never read its socket would destroy the socket.
 */
function requestWithBody(original: IncomingMessage, body: Buffer): IncomingMessage {
  const headers = { ...original.headers, 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  const stream = new Readable({ read() {} });
  stream.push(body);
  stream.push(null);
  return Object.assign(stream, {
    method: original.method,
    url: original.url,
    headers,
    rawHeaders: original.rawHeaders,
    httpVersion: original.httpVersion,
    httpVersionMajor: original.httpVersionMajor,
    httpVersionMinor: original.httpVersionMinor,
    socket: original.socket,
    connection: original.socket,
  }) as unknown as IncomingMessage;
}

/**
 * Hands every request under the mount path to oidc-provider (a Koa app) untouched: no body parser
 * runs here (a catch-all content-type parser leaves the stream alone), the reply is hijacked and the
 * raw request/response go to `provider.callback()`, with the mount path moved from `url` to
 * `originalUrl` as Express-style mounting does, which oidc-provider reads to build its own URLs.
 *
 * The public origin is fixed by configuration (it is the issuer's), so the provider is told it
 * through the forwarded headers rather than trusting the caller's; the client address is Fastify's
 * (which honours TRUST_PROXY).
 */
export async function providerPassthrough(scope: FastifyInstance, opts: ProviderMountOptions): Promise<void> {
  const { provider, mountPath } = opts;
  const origin = new URL(opts.publicOrigin);
  const forwardedProto = origin.protocol.replace(/:$/, '');
  provider.proxy = true;
  // A path the provider does not serve gets the portal's own 404 body, not Koa's "Not Found".
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body == null) {
      ctx.status = 404;
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = { code: 'route.not_found', message: errorMessage('route.not_found') };
    }
  });
  const callback = provider.callback();

  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  async function handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const raw = request.raw;
    const originalUrl = raw.url ?? '/';
    const rest = originalUrl.slice(mountPath.length);
    const url = rest.startsWith('/') ? rest : `/${rest}`;
    const path = url.split('?')[0];

    raw.headers['x-forwarded-proto'] = forwardedProto;
    raw.headers['x-forwarded-host'] = origin.host;
    raw.headers['x-forwarded-for'] = request.ip;

    let req: IncomingMessage = raw;
    if (raw.method === 'POST' && path === '/token' && /^application\/x-www-form-urlencoded/i.test(raw.headers['content-type'] ?? '')) {
      const body = await readBody(raw, TOKEN_BODY_LIMIT);
      if (!body) {
        await reply
          .code(413)
          .header('cache-control', 'no-store')
          .send({ error: 'invalid_request', error_description: 'request body too large' });
        return;
      }
      const rewritten = stripOfflineAccessFromRefresh(body.toString('utf8'));
      req = requestWithBody(raw, rewritten === undefined ? body : Buffer.from(rewritten, 'utf8'));
    }
    Object.assign(req, { url, originalUrl, baseUrl: mountPath });

    // Headers set by earlier hooks (request id, security headers) are still held by Fastify.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined && !reply.raw.hasHeader(name)) reply.raw.setHeader(name, value);
    }
    reply.hijack();
    try {
      await callback(req, reply.raw);
    } finally {
      raw.url = originalUrl;
    }
  }

  scope.all('/*', handle);
}
