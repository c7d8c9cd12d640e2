import Fastify, { type FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config.js';
import { installErrorHandling } from '../../lib/errors.js';
import type { PortalMetrics } from './metrics.registry.js';
import { metricsRoutes } from './metrics.routes.js';

/** A listener of its own for GET /metrics (METRICS_PORT): no SPA, no API; the token is honoured when set. */
export async function buildMetricsServer(config: AppConfig, metrics: PortalMetrics): Promise<FastifyInstance> {
  const server = Fastify({ logger: false }) as unknown as FastifyInstance;
  installErrorHandling(server);
  await server.register(metricsRoutes, { metrics, access: { token: config.metrics.token } });
  return server;
}
