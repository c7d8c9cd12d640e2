import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import type { PortalMetrics } from './metrics.registry.js';

export interface MetricsRouteOptions {
  metrics: PortalMetrics;
  /** false: the route answers 404 (metrics off here); a string: the bearer token required. */
  access: false | { token: string | null };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics in Prometheus text format. Off by default (404, never the SPA); on the main port
 * only with METRICS_TOKEN (bearer); on METRICS_PORT without a token unless one is set.
 */
export async function metricsRoutes(app: FastifyInstance, opts: MetricsRouteOptions): Promise<void> {
  const { metrics, access } = opts;
  app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request: FastifyRequest, reply: FastifyReply) => {
    if (access === false) throw new AppError({ code: 'route.not_found' });
    if (access.token !== null) {
      const header = request.headers.authorization ?? '';
      const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? '';
      if (!given || !sameToken(given, access.token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError({ code: given ? 'auth.token_invalid' : 'auth.token_missing' });
      }
    }
    const body = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}
