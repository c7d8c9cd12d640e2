import type { FastifyInstance } from 'fastify';
import { onRequestDone, routeOf } from '../../lib/logging.js';
import type { PortalMetrics } from './metrics.registry.js';

/** Records every request's duration by method, route pattern and status, and counts 429 refusals. */
export function installHttpMetrics(app: FastifyInstance, metrics: PortalMetrics): void {
  app.addHook('onRequest', async () => {
    metrics.httpRequestsInFlight.inc();
  });
  onRequestDone(app, (request, reply) => {
    metrics.httpRequestsInFlight.dec();
    const route = routeOf(request);
    const statusCode = reply.raw.statusCode;
    metrics.httpRequestDuration.observe({ method: request.method, route, status_code: String(statusCode) }, reply.elapsedTime / 1000);
    if (statusCode === 429) metrics.rateLimitRefusals.inc({ route });
  });
}
