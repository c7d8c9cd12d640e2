import { useMutation } from '@tanstack/react-query';
import { startedPushSchema, type StartedPush } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';

/** POST /api/me/step-up/push: confirm it's me by approving a push on one of my phones (poll its state). */
export function startStepUpPush(api: ApiClient, deviceId: string): Promise<StartedPush> {
  return api.request(ME_API.stepUpPush, { method: 'POST', body: { deviceId }, schema: startedPushSchema });
}

export function useStartStepUpPush() {
  const api = useApiClient();
  return useMutation({ mutationFn: (deviceId: string) => startStepUpPush(api, deviceId) });
}
