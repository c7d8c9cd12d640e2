import { useQuery } from '@tanstack/react-query';
import { auditStreamsStatusSchema, type AuditStreamsStatus } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/** GET /api/admin/reports/audit-streams: how the audit trail reaches the SIEM, stream by stream. */
export function getAuditStreams(api: ApiClient, signal?: AbortSignal): Promise<AuditStreamsStatus> {
  return api.request(ADMIN_API.reportsAuditStreams, { signal, schema: auditStreamsStatusSchema });
}

/** Read again every half minute while the page is open: a backlog or an error shows without a reload. */
export function useAuditStreams() {
  const api = useApiClient();
  return useQuery({
    queryKey: adminKeys.reportsAuditStreams,
    queryFn: ({ signal }) => getAuditStreams(api, signal),
    refetchInterval: 30_000,
  });
}
