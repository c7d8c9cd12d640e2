import type { FastifyInstance } from 'fastify';
import type { HealthService } from './health.service.js';

const NO_STORE = 'no-store, max-age=0';

/**
 * GET /healthz (liveness: no database call) and GET /readyz (readiness: 503 naming what is not ready;
 * 200 with status `degraded` naming what only makes the service less efficient). Never cached, never
 * behind sign-in, never the SPA's index.html.
 */
export async function healthRoutes(app: FastifyInstance, opts: { health: HealthService }): Promise<void> {
  const schema = { hide: true };
  app.get('/healthz', { schema, logLevel: 'warn' }, async (_request, reply) =>
    reply.header('cache-control', NO_STORE).type('application/json; charset=utf-8').send({ status: 'ok' }),
  );
  app.get('/readyz', { schema, logLevel: 'warn' }, async (_request, reply) => {
    const r = await opts.health.readiness();
    const status = !r.ready ? 'not_ready' : r.degraded.length > 0 ? 'degraded' : 'ready';
    return reply
      .code(r.ready ? 200 : 503)
      .header('cache-control', NO_STORE)
      .type('application/json; charset=utf-8')
      .send({ status, notReady: r.notReady, degraded: r.degraded, checks: r.checks });
  });
}
