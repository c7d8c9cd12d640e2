import { useMutation } from '@tanstack/react-query';
import { adminVerificationStateSchema, type AdminManualVerificationBody, type AdminVerificationState } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { useInvalidateUser } from './use-invalidate-user';

/**
 * POST /api/admin/users/:upn/verify-identity/manual: records how the administrator verified a caller
 * who has no device left (a method from a fixed list, and the ticket). Audited; counts for the window.
 */
export function verifyManually(api: ApiClient, upn: string, body: AdminManualVerificationBody): Promise<AdminVerificationState> {
  return api.request(ADMIN_API.verifyIdentityManual(upn), { method: 'POST', body, schema: adminVerificationStateSchema });
}

export function useVerifyManually(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({ mutationFn: (body: AdminManualVerificationBody) => verifyManually(api, upn, body), onSuccess: invalidate });
}
