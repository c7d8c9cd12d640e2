import { useMutation } from '@tanstack/react-query';
import { startedPushSchema, type StartedPush } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';

/** POST /api/me/devices/:id/push: send a test push (answers at once; poll its state). */
export function startTestPush(api: ApiClient, deviceId: string): Promise<StartedPush> {
  return api.request(ME_API.devicePush(deviceId), { method: 'POST', schema: startedPushSchema });
}

export function useStartTestPush() {
  const api = useApiClient();
  return useMutation({ mutationFn: (deviceId: string) => startTestPush(api, deviceId) });
}
