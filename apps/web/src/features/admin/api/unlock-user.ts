import { useMutation } from '@tanstack/react-query';
import { adminUnlockResponseSchema, type AdminActionBody, type AdminUnlockResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { useInvalidateUser } from './use-invalidate-user';

/** POST /api/admin/users/:upn/unlock: ends a lockout. */
export function unlockUser(api: ApiClient, upn: string, body: AdminActionBody): Promise<AdminUnlockResponse> {
  return api.request(ADMIN_API.unlock(upn), { method: 'POST', body, schema: adminUnlockResponseSchema });
}

export function useUnlockUser(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({ mutationFn: (body: AdminActionBody) => unlockUser(api, upn, body), onSuccess: invalidate });
}
