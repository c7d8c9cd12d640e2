import { useMutation } from '@tanstack/react-query';
import { adminVerifyIdentityResponseSchema, type AdminVerifyIdentityResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { useInvalidateUser } from './use-invalidate-user';

export interface VerifyIdentityInput {
  deviceId: string;
  code: string;
  /** The call's ticket, recorded with the check. */
  ticket?: string;
}

/**
 * POST /api/admin/users/:upn/verify-identity: checks a passcode the caller reads from one of their
 * devices. A wrong or used code is a result (`verified: false` with the reason), not an error.
 */
export function verifyIdentity(api: ApiClient, upn: string, body: VerifyIdentityInput): Promise<AdminVerifyIdentityResponse> {
  return api.request(ADMIN_API.verifyIdentity(upn), { method: 'POST', body, schema: adminVerifyIdentityResponseSchema });
}

export function useVerifyIdentity(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({ mutationFn: (body: VerifyIdentityInput) => verifyIdentity(api, upn, body), onSuccess: invalidate });
}
