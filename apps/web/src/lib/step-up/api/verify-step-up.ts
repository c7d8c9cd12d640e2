import { useMutation } from '@tanstack/react-query';
import { stepUpStatusSchema, type StepUpBody, type StepUpStatus } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';

/** POST /api/me/step-up: verify with an existing factor so sensitive changes are allowed for a few minutes. */
export function verifyStepUp(api: ApiClient, body: StepUpBody): Promise<StepUpStatus> {
  return api.request(ME_API.stepUp, { method: 'POST', body, schema: stepUpStatusSchema });
}

export function useVerifyStepUp() {
  const api = useApiClient();
  return useMutation({ mutationFn: (body: StepUpBody) => verifyStepUp(api, body) });
}
