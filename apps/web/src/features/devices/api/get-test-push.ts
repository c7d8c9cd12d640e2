import { useQuery } from '@tanstack/react-query';
import { pushTransactionSchema, type PushTransaction } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { pushKeys } from '../../../lib/api/query-keys';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';
import { pollWhileWaiting } from '../../../lib/push/push-polling';

/** GET /api/me/devices/:id/push/:txid: waiting, approved, denied, fraud or timeout. */
export function getTestPush(api: ApiClient, deviceId: string, txid: string, signal?: AbortSignal): Promise<PushTransaction> {
  return api.request(ME_API.devicePushStatus(deviceId, txid), { signal, schema: pushTransactionSchema });
}

/** Polls a test push until it is answered (then refreshes "last used" and the activity). */
export function useTestPush(deviceId: string, started: PushTransaction | undefined) {
  const api = useApiClient();
  const invalidate = useInvalidateMe();
  const txid = started?.txid ?? '';
  return useQuery({
    queryKey: pushKeys.test(deviceId, txid),
    queryFn: async ({ signal }) => {
      const push = await getTestPush(api, deviceId, txid, signal);
      if (push.state !== 'waiting') void invalidate();
      return push;
    },
    enabled: started !== undefined,
    initialData: started,
    initialDataUpdatedAt: 0,
    refetchInterval: pollWhileWaiting,
    retry: false,
    gcTime: 0,
  });
}
