import { useMutation } from '@tanstack/react-query';
import { adminDeviceResponseSchema, type AdminActionBody, type Device } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { useInvalidateUser } from './use-invalidate-user';

export interface ResyncUserTokenInput extends AdminActionBody {
  deviceId: string;
  codes: string[];
}

/** POST /api/admin/users/:upn/devices/:id/resync with three consecutive codes the user reads out. */
export async function resyncUserToken(api: ApiClient, upn: string, { deviceId, ...body }: ResyncUserTokenInput): Promise<Device> {
  const { device } = await api.request(ADMIN_API.deviceResync(upn, deviceId), { method: 'POST', body, schema: adminDeviceResponseSchema });
  return device;
}

export function useResyncUserToken(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({ mutationFn: (input: ResyncUserTokenInput) => resyncUserToken(api, upn, input), onSuccess: invalidate });
}
