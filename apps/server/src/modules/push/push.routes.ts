import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pushIdParamsSchema } from '@mfa-portal/shared';
import { AppError } from '../../lib/errors.js';
import type { PushEvents } from '../authenticator/push-events.js';
import { openSse } from '../authenticator/sse.js';
import { COMMON_ERRORS, ME_TAGS, SECURITY } from '../common/route-schemas.js';
import { installSelfServiceHooks, type SelfRoutesOptions } from '../common/self-routes.js';
import type { PushService } from './push.service.js';

/**
 * `<basePath>api/me/push/:txid/events`: the waiting browser is told, over server-sent events, the
 * moment its push stops waiting (`event: state`, then the stream ends); it then calls the push's own
 * status route, which records the step-up or the check once. Only the caller's own push, started in
 * this sign-in session: another session's approval is nothing to this one.
 */
export async function pushEventRoutes(
  app: FastifyInstance,
  opts: Pick<SelfRoutesOptions, 'verify'> & { pushes: PushService; events: PushEvents },
): Promise<void> {
  installSelfServiceHooks(app, opts.verify);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/push/:txid/events',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Server-sent events: `state` {state} once my push is answered or times out, then the end',
        params: pushIdParamsSchema,
        response: { 200: z.string().describe('text/event-stream'), ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const who = { upn: request.caller.upn, txid: request.params.txid, session: request.caller.session };
      if (!(await opts.pushes.peek(who))) throw new AppError({ code: 'push.not_found', details: { field: 'txid' } });
      opts.events.watchPush(openSse(reply), who);
      return reply;
    },
  );
}
