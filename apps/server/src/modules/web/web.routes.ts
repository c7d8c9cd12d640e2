import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.js';
import { AppError } from '../../lib/errors.js';

/** Paths that belong to the server, never to the SPA fallback. */
const SERVER_PREFIXES = ['api/', 'account/', 'settings/', 'locales/', 'idp/', 'static/'];

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Serves the built SPA under the base path: hashed assets (long-lived cache), the service worker
 * (never cached), and index.html (with `<base href>` set to the base path) for every other page.
 */
export async function webRoutes(app: FastifyInstance, opts: { config: AppConfig; webRoot: string }): Promise<void> {
  const { basePath } = opts.config;
  const indexFile = path.join(opts.webRoot, 'index.html');
  const built = fs.existsSync(indexFile);
  const indexHtml = built ? fs.readFileSync(indexFile, 'utf8').replace('<base href="/" />', `<base href="${escapeAttr(basePath)}" />`) : undefined;
  if (built && !indexHtml!.includes(`<base href="${escapeAttr(basePath)}"`)) throw new Error('apps/web/dist/index.html has no <base href="/" /> to rewrite');

  if (built) {
    await app.register(fastifyStatic, {
      root: opts.webRoot,
      prefix: basePath,
      wildcard: true,
      index: false,
      serve: true,
      setHeaders(reply, filePath) {
        const rel = path.relative(opts.webRoot, filePath).split(path.sep).join('/');
        reply.header('cache-control', rel.startsWith('static/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const sendIndex = (reply: FastifyReply) => {
    if (!indexHtml) {
      return reply.code(503).type('text/plain; charset=utf-8').send('The web application has not been built yet. Run "npm run build" (npm start does it for you).');
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  };

  app.get(basePath, async (_req, reply) => sendIndex(reply));

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0] ?? '';
    const rel = url.startsWith(basePath) ? url.slice(basePath.length) : undefined;
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && rel !== undefined && !SERVER_PREFIXES.some((p) => rel.startsWith(p)) && !/\.[a-z0-9]{1,5}$/i.test(rel);
    if (wantsPage) return sendIndex(reply);
    throw new AppError(404, 'route.not_found');
  });
}
