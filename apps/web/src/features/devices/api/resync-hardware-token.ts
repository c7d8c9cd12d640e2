import { useMutation } from '@tanstack/react-query';
import { deviceSchema, type Device } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';

export interface ResyncInput {
  deviceId: string;
  codes: string[];
}

/** POST /api/me/devices/:id/resync with three consecutive codes from the token. */
export function resyncHardwareToken(api: ApiClient, { deviceId, codes }: ResyncInput): Promise<Device> {
  return api.request(ME_API.deviceResync(deviceId), { method: 'POST', body: { codes }, schema: deviceSchema });
}

export function useResyncHardwareToken() {
  const api = useApiClient();
  const invalidate = useInvalidateMe();
  return useMutation({ mutationFn: (input: ResyncInput) => resyncHardwareToken(api, input), onSuccess: invalidate });
}
