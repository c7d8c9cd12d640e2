import { useMutation } from '@tanstack/react-query';
import { createBypassCodesResponseSchema, type AdminCreateBypassCodesBody, type CreateBypassCodesResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { useInvalidateUser } from './use-invalidate-user';

/** POST /api/admin/users/:upn/bypass-codes (reason and ticket required): the codes come back this once. */
export function createUserBypassCodes(api: ApiClient, upn: string, body: AdminCreateBypassCodesBody): Promise<CreateBypassCodesResponse> {
  return api.request(ADMIN_API.bypassCodes(upn), { method: 'POST', body, schema: createBypassCodesResponseSchema });
}

export function useCreateUserBypassCodes(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({ mutationFn: (body: AdminCreateBypassCodesBody) => createUserBypassCodes(api, upn, body), onSuccess: invalidate });
}
