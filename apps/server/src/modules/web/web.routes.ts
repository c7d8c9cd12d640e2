import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceDeskContact } from '@mfa-portal/shared';
import type { AppConfig } from '../../config.js';
import { AppError } from '../../lib/errors.js';
import { appFileHeaders, authenticatorAppRoutes } from './authenticator-app.js';

/**
 * Paths that belong to the server, never to the SPA fallback. The authenticator app's folder is its
 * own (its page, files and API): an unknown address there is a 404, not the portal's page.
 */
const SERVER_PREFIXES = ['api/', 'account/', 'settings/', 'locales/', 'idp/', 'static/', 'authenticator/'];

/** br, then gzip, when the browser accepts it (q=0 refuses); identity otherwise. */
export function preferredEncoding(header: string | string[] | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

/**
 * Whether the client asks for a page: `text/html` listed in Accept (and not refused with q=0), as a
 * browser does when an address is typed, pasted or followed. A bare "any type" (scripts, the service worker,
 * the translation loader) is not a request for a page.
 */
export function acceptsHtml(header: string | string[] | undefined): boolean {
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    if (type?.trim() !== 'text/html') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q ? Number(q.slice(2)) > 0 : true;
  }
  return false;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The service desk's contact as `<meta>` elements of the page: the shell's error pages show it without
 * a request of their own (the page is all they are sure to have), and the main application reads it
 * from the same place. Nothing when it is not configured.
 */
export function serviceDeskMeta(desk: ServiceDeskContact | null): string {
  if (!desk) return '';
  const link = desk.link ? `\n    <meta name="service-desk-link" content="${escapeAttr(desk.link)}" />` : '';
  return `\n    <meta name="service-desk-contact" content="${escapeAttr(desk.text)}" />${link}`;
}

/**
 * Serves the built SPA under the base path: hashed assets (long-lived cache), the service worker
 * (never cached), and index.html (with `<base href>` set to the base path) for every other page;
 * and the authenticator app, a separate build in its own folder.
 */
export async function webRoutes(app: FastifyInstance, opts: { config: AppConfig; webRoot: string }): Promise<void> {
  const { basePath } = opts.config;
  const indexFile = path.join(opts.webRoot, 'index.html');
  const built = fs.existsSync(indexFile);
  const indexHtml = built
    ? fs
        .readFileSync(indexFile, 'utf8')
        .replace('<base href="/" />', () => `<base href="${escapeAttr(basePath)}" />${serviceDeskMeta(opts.config.serviceDesk)}`)
    : undefined;
  if (built && !indexHtml!.includes(`<base href="${escapeAttr(basePath)}"`))
    throw new Error('apps/web/dist/index.html has no <base href="/" /> to rewrite');

  if (built) {
    await app.register(fastifyStatic, {
      root: opts.webRoot,
      prefix: basePath,
      wildcard: true,
      index: false,
      serve: true,
      // The build writes .br and .gz copies (apps/web/src/lib/build/precompress.ts): sent with
      // Content-Encoding and Vary: Accept-Encoding to a browser that accepts them.
      preCompressed: true,
      setHeaders(reply, filePath) {
        const rel = path.relative(opts.webRoot, filePath).split(path.sep).join('/');
        if (appFileHeaders(reply, rel, basePath)) return;
        reply.header('cache-control', rel.startsWith('static/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  // index.html (rewritten above) compressed once at start, like the build's assets.
  const indexEncoded = indexHtml
    ? { br: brotliCompressSync(indexHtml), gzip: gzipSync(indexHtml, { level: 9 }), identity: Buffer.from(indexHtml) }
    : undefined;

  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    if (!indexEncoded) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web application has not been built yet. Run "npm run build" (npm start does it for you).');
    }
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .type('text/html; charset=utf-8')
      .send(indexEncoded[encoding]);
  };

  app.get(basePath, async (request, reply) => sendIndex(request, reply));
  await authenticatorAppRoutes(app, { basePath, webRoot: opts.webRoot, preferredEncoding });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0] ?? '';
    const rel = url.startsWith(basePath) ? url.slice(basePath.length) : undefined;
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      rel !== undefined &&
      !SERVER_PREFIXES.some((p) => rel.startsWith(p)) &&
      // An address that ends like a file (`/admin/users/bob@example.com`) is still a page when a browser
      // asks for one; a missing file fetched by a script stays a 404.
      (!/\.[a-z0-9]{1,5}$/i.test(rel) || acceptsHtml(request.headers.accept));
    if (wantsPage) return sendIndex(request, reply);
    throw new AppError({ code: 'route.not_found' });
  });
}
