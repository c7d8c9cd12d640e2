import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema, notificationOutboxQuerySchema, notificationOutboxStatusSchema } from '@mfa-portal/shared';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import type { NotificationsService } from '../../notifications/notifications.service.js';

const ERRORS = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema } as const;

/**
 * `/api/admin/notifications`: the e-mail outbox's state (counts by state, latest messages, their
 * attempts and last error), for the Solution Administrator only. The messages' text is never shown.
 */
export async function notificationsAdminRoutes(
  app: FastifyInstance,
  opts: AdminRoutesOptions & { notifications: NotificationsService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { global } = installAdminHooks(app, opts);
  app.addHook('preValidation', global('admin.notifications.read'));
  r.get(
    '',
    {
      schema: {
        tags: ['admin'],
        security: [{ bearerAuth: [] }],
        summary: 'The security notification outbox: counts by state and the latest messages',
        querystring: notificationOutboxQuerySchema,
        response: { 200: notificationOutboxStatusSchema, ...ERRORS },
      },
    },
    async (request) =>
      opts.notifications.status({ limit: request.query.limit, ...(request.query.state ? { state: request.query.state } : {}) }),
  );
}
