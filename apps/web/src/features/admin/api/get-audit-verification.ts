import { useQuery } from '@tanstack/react-query';
import { adminAuditVerificationSchema, type AdminAuditVerification } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/** How often a running check of the chain is asked for its progress. */
export const VERIFICATION_POLL_MS = 500;

/** GET /api/admin/audit/verifications/:id: a check of the chain, its progress, then its verdict. */
export function getAuditVerification(api: ApiClient, id: string, signal?: AbortSignal): Promise<AdminAuditVerification> {
  return api.request(ADMIN_API.auditVerification(id), { signal, schema: adminAuditVerificationSchema });
}

/** The run `started` (as the start answered), polled while it is running. */
export function useAuditVerification(started: AdminAuditVerification | undefined) {
  const api = useApiClient();
  return useQuery({
    queryKey: adminKeys.auditVerification(started?.id ?? ''),
    queryFn: ({ signal }) => getAuditVerification(api, started!.id, signal),
    enabled: started !== undefined && started.state === 'running',
    initialData: started,
    refetchInterval: (query) => (query.state.data?.state === 'running' ? VERIFICATION_POLL_MS : false),
  });
}
