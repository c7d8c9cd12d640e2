import { useMutation } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';
import { useInvalidateMe } from '../../api/use-invalidate-me';
import { useWithStepUp } from '../../step-up/step-up';

export interface DeleteInput {
  deviceId: string;
  /** Required to remove the only device (the API answers 409 otherwise). */
  confirmLastDevice: boolean;
}

/** DELETE /api/me/devices/:id (needs a step-up). */
export function deleteDevice(api: ApiClient, { deviceId, confirmLastDevice }: DeleteInput): Promise<void> {
  return api.request(ME_API.device(deviceId), { method: 'DELETE', query: confirmLastDevice ? { confirmLastDevice: 'true' } : undefined });
}

export function useDeleteDevice() {
  const api = useApiClient();
  const withStepUp = useWithStepUp();
  const invalidate = useInvalidateMe();
  return useMutation({ mutationFn: (input: DeleteInput) => withStepUp(() => deleteDevice(api, input)), onSuccess: invalidate });
}
