import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { AUTHENTICATOR_APP_PATH } from '@mfa-portal/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type Encoded = Record<'br' | 'gzip' | 'identity', Buffer>;

/** The app's folder in the build (apps/web/dist/authenticator/, its own Vite build). */
export const APP_FOLDER = AUTHENTICATOR_APP_PATH;

/**
 * Headers of the files in the app's folder that the static handler sends: the content-hashed assets
 * for good, everything else (the service worker above all) checked on every use. The service worker
 * may control the app's folder and nothing above it; the manifest gets its registered type.
 */
export function appFileHeaders(reply: { header(name: string, value: string): unknown }, rel: string, basePath: string): boolean {
  if (!rel.startsWith(APP_FOLDER)) return false;
  // The static handler names the file it sends: the build's .br or .gz copy when the browser takes it.
  const inner = rel.slice(APP_FOLDER.length).replace(/\.(br|gz)$/, '');
  reply.header('cache-control', inner.startsWith('static/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (inner === 'sw.js') reply.header('service-worker-allowed', `${basePath}${APP_FOLDER}`);
  if (inner.endsWith('.webmanifest')) reply.header('content-type', 'application/manifest+json; charset=utf-8');
  return true;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Serves the authenticator app's page at `<base>authenticator/`: its own index.html (never the
 * portal's, whose router and bundles it does not use) with `<base href>` set to the app's folder, so
 * its relative asset, manifest and service worker addresses resolve there and the app can tell the
 * portal's base path. The page is read when first asked for, so a build made after start is served.
 * The app's API (`<base>authenticator/api/`) is registered elsewhere and is not touched here.
 */
export async function authenticatorAppRoutes(
  app: FastifyInstance,
  opts: { basePath: string; webRoot: string; preferredEncoding(header: string | string[] | undefined): keyof Encoded },
): Promise<void> {
  const appPath = `${opts.basePath}${APP_FOLDER}`;
  const indexFile = path.join(opts.webRoot, APP_FOLDER, 'index.html');
  let encoded: Encoded | undefined;

  const page = (): Encoded | undefined => {
    if (encoded || !fs.existsSync(indexFile)) return encoded;
    const html = fs.readFileSync(indexFile, 'utf8').replace(/<base href="[^"]*" \/>/, `<base href="${escapeAttr(appPath)}" />`);
    if (!html.includes(`<base href="${escapeAttr(appPath)}" />`)) throw new Error(`${indexFile} has no <base href> to rewrite`);
    encoded = { br: brotliCompressSync(html), gzip: gzipSync(html, { level: 9 }), identity: Buffer.from(html) };
    return encoded;
  };

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = page();
    if (!body) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send('The authenticator app has not been built yet. Run "npm run build" (npm start does it for you).');
    }
    const encoding = opts.preferredEncoding(request.headers['accept-encoding']);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .type('text/html; charset=utf-8')
      .send(body[encoding]);
  };

  app.get(appPath, sendPage);
  app.get(`${appPath}index.html`, sendPage);
  // Without the slash the page's relative addresses (and the service worker's scope) would be wrong.
  app.get(appPath.slice(0, -1), async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`${appPath}${query}`, 308);
  });
}
