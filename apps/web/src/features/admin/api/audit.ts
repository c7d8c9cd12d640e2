import { keepPreviousData, useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { adminAuditResponseSchema, type AdminAuditResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/** Filters of the audit log as the screen holds them (times as ISO 8601, empty = not filtered). */
export interface AuditFilter {
  actor?: string;
  target?: string;
  action?: string;
  outcome?: 'success' | 'failure';
  from?: string;
  to?: string;
}

/** How many events a page of the audit log shows. */
export const AUDIT_PAGE_SIZE = 50;

const queryOf = (filter: AuditFilter) => ({
  actor: filter.actor || undefined,
  target: filter.target || undefined,
  action: filter.action || undefined,
  outcome: filter.outcome || undefined,
  from: filter.from || undefined,
  to: filter.to || undefined,
});

/** GET /api/admin/audit: one page of the filtered log, newest first. */
export function getAuditPage(
  api: ApiClient,
  filter: AuditFilter,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<AdminAuditResponse> {
  return api.request(ADMIN_API.audit, {
    query: { ...queryOf(filter), cursor, limit: AUDIT_PAGE_SIZE },
    signal,
    schema: adminAuditResponseSchema,
  });
}

export function useAuditLog(filter: AuditFilter) {
  const api = useApiClient();
  return useInfiniteQuery({
    queryKey: adminKeys.audit(filter),
    queryFn: ({ pageParam, signal }) => getAuditPage(api, filter, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/audit.csv: the filtered log as CSV text (the browser then saves it). */
export function exportAuditCsv(api: ApiClient, filter: AuditFilter): Promise<string> {
  return api.text(ADMIN_API.auditCsv, { query: queryOf(filter) });
}

export function useExportAuditCsv() {
  const api = useApiClient();
  return useMutation({ mutationFn: (filter: AuditFilter) => exportAuditCsv(api, filter) });
}
