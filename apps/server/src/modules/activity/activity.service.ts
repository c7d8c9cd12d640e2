import type { ActivityQuery, ActivityResponse } from '@mfa-portal/shared';
import type { IpLocator } from '../../lib/ip-locations.js';
import type { AuditService } from '../audit/audit.service.js';
import type { RequestContext } from '../common/request-context.js';
import { EntryCollector } from './activity-grouping.js';
import { toEntry } from './activity-story.js';

/**
 * The caller's activity (`/api/me/activity`): the audit events about their account, told as entries
 * (a sign-in, a change, a service-desk action), newest first. Grouped here, on the server, so that a
 * page holds `limit` whole entries and the cursor always falls between two of them.
 */
export function createActivityService(deps: { audit: AuditService; locate: IpLocator }) {
  return {
    async activity(ctx: RequestContext, query: ActivityQuery): Promise<ActivityResponse> {
      const upn = ctx.upn.toLowerCase();
      const collector = new EntryCollector();
      // Most entries hold a few events; the reads stop as soon as `limit` entries are complete.
      const batch = Math.min(query.limit * 4 + 1, 500);
      let cursor = query.cursor;
      let more = false;
      // Ends: an entry holds at most MAX_EVENTS_PER_ENTRY (activity-grouping.ts) events, so at most limit × that many (and one) are read.
      for (;;) {
        const page = await deps.audit.listForUser(upn, { cursor, limit: batch });
        const stoppedAt = page.events.findIndex((e) => !collector.add(e, query.limit));
        if (stoppedAt >= 0) {
          more = true;
          break;
        }
        if (!page.nextCursor) {
          collector.finish();
          break;
        }
        cursor = page.nextCursor;
      }
      const entries = collector.entries.slice(0, query.limit);
      const oldest = entries.at(-1)?.[0];
      return {
        entries: entries.map((events) => toEntry(events, upn, deps.locate)),
        nextCursor: more && oldest ? oldest.id : null,
      };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
