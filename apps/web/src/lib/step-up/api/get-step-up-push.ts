import { useQuery } from '@tanstack/react-query';
import { stepUpPushStatusSchema, type PushTransaction, type StepUpPushStatus } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';
import { pushKeys } from '../../api/query-keys';
import { pollWhileWaiting } from '../../push/push-polling';

/** GET /api/me/step-up/push/:txid: the push, and the step-up it gave once approved. */
export function getStepUpPush(api: ApiClient, txid: string, signal?: AbortSignal): Promise<StepUpPushStatus> {
  return api.request(ME_API.stepUpPushStatus(txid), { signal, schema: stepUpPushStatusSchema });
}

/** Polls a step-up push until it is answered. */
export function useStepUpPush(started: PushTransaction | undefined) {
  const api = useApiClient();
  const txid = started?.txid ?? '';
  return useQuery({
    queryKey: pushKeys.stepUp(txid),
    queryFn: ({ signal }) => getStepUpPush(api, txid, signal),
    enabled: started !== undefined,
    refetchInterval: pollWhileWaiting,
    retry: false,
    gcTime: 0,
  });
}
