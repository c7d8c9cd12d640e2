import { useMutation } from '@tanstack/react-query';
import { deviceSchema, type Device } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';

export interface RenameInput {
  deviceId: string;
  name: string;
}

/** PATCH /api/me/devices/:id */
export function renameDevice(api: ApiClient, { deviceId, name }: RenameInput): Promise<Device> {
  return api.request(ME_API.device(deviceId), { method: 'PATCH', body: { name }, schema: deviceSchema });
}

export function useRenameDevice() {
  const api = useApiClient();
  const invalidate = useInvalidateMe();
  return useMutation({ mutationFn: (input: RenameInput) => renameDevice(api, input), onSuccess: invalidate });
}
