import { useMutation } from '@tanstack/react-query';
import { bypassCodeInfoSchema, type BypassCodeInfo } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';

/** DELETE /api/me/bypass-codes/:id */
export function revokeBypassCode(api: ApiClient, id: string): Promise<BypassCodeInfo> {
  return api.request(ME_API.bypassCode(id), { method: 'DELETE', schema: bypassCodeInfoSchema });
}

export function useRevokeBypassCode() {
  const api = useApiClient();
  const invalidate = useInvalidateMe();
  return useMutation({ mutationFn: (id: string) => revokeBypassCode(api, id), onSuccess: invalidate });
}
