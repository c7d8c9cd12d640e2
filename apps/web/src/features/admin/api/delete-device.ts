import { useMutation } from '@tanstack/react-query';
import { adminDeviceResponseSchema, type AdminActionBody, type Device } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { useInvalidateUser } from './use-invalidate-user';

export interface DeleteUserDeviceInput extends AdminActionBody {
  deviceId: string;
  /** Needed to remove the user's only device (409 otherwise). */
  confirmLastDevice: boolean;
}

/** DELETE /api/admin/users/:upn/devices/:id (a hardware token returns to the inventory). */
export async function deleteUserDevice(api: ApiClient, upn: string, { deviceId, ...body }: DeleteUserDeviceInput): Promise<Device> {
  const { device } = await api.request(ADMIN_API.device(upn, deviceId), { method: 'DELETE', body, schema: adminDeviceResponseSchema });
  return device;
}

export function useDeleteUserDevice(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({ mutationFn: (input: DeleteUserDeviceInput) => deleteUserDevice(api, upn, input), onSuccess: invalidate });
}
