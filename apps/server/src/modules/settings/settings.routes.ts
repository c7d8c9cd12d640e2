import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config.js';
import { apiInfoFor, clientInfoFor } from './settings.service.js';

/** GET /settings/AADClientInfo and /settings/APIInfo: JSON text bodies read by the shell before start-up. */
export async function settingsRoutes(app: FastifyInstance, opts: { config: AppConfig }): Promise<void> {
  const clientInfo = JSON.stringify(clientInfoFor(opts.config));
  const apiInfo = JSON.stringify(apiInfoFor(opts.config));
  app.get('/settings/AADClientInfo', async (_req, reply) =>
    reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(clientInfo),
  );
  app.get('/settings/APIInfo', async (_req, reply) =>
    reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(apiInfo),
  );
}
