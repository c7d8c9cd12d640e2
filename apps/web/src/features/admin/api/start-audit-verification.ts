import { useMutation } from '@tanstack/react-query';
import { adminAuditVerificationSchema, type AdminAuditVerification } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';

export type AuditVerificationMode = AdminAuditVerification['mode'];

/**
 * POST /api/admin/audit/verifications (202): starts checking the hash chain on the server, from the
 * start (`full`) or only what is new since the last check (`incremental`); then poll the run.
 */
export function startAuditVerification(api: ApiClient, mode: AuditVerificationMode): Promise<AdminAuditVerification> {
  return api.request(ADMIN_API.auditVerifications, { method: 'POST', body: { mode }, schema: adminAuditVerificationSchema });
}

export function useStartAuditVerification() {
  const api = useApiClient();
  return useMutation({ mutationFn: (mode: AuditVerificationMode) => startAuditVerification(api, mode) });
}
