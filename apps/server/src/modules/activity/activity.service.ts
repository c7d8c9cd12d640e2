import type { ActivityQuery, ActivityResponse } from '@mfa-portal/shared';
import type { IpLocator } from '../../lib/ip-locations.js';
import { toActivityEvent } from '../audit/activity-event.js';
import type { AuditService } from '../audit/audit.service.js';
import type { RequestContext } from '../common/request-context.js';
import { clientInfoOf } from './client-info.js';

/**
 * The caller's activity (`/api/me/activity`): audit events about their account, newest first, each
 * with where it came from (address, browser, system, approximate location, method).
 */
export function createActivityService(deps: { audit: AuditService; locate: IpLocator }) {
  return {
    async activity(ctx: RequestContext, query: ActivityQuery): Promise<ActivityResponse> {
      const page = await deps.audit.listForUser(ctx.upn, { cursor: query.cursor, limit: query.limit });
      return {
        events: page.events.map((e) => {
          // The address goes out inside `client`, with what it tells (browser, system, location).
          const { clientAddress: _omit, ...event } = toActivityEvent(e);
          return { ...event, client: clientInfoOf(e, deps.locate) };
        }),
        nextCursor: page.nextCursor,
      };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
