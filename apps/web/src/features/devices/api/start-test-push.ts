import { useMutation } from '@tanstack/react-query';
import { pushTransactionSchema, type PushTransaction } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';

/** POST /api/me/devices/:id/push: send a test push (answers at once; poll its state). */
export function startTestPush(api: ApiClient, deviceId: string): Promise<PushTransaction> {
  return api.request(ME_API.devicePush(deviceId), { method: 'POST', schema: pushTransactionSchema });
}

export function useStartTestPush() {
  const api = useApiClient();
  return useMutation({ mutationFn: (deviceId: string) => startTestPush(api, deviceId) });
}
