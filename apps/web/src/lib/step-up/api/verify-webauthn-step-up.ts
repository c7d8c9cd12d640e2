import { useMutation } from '@tanstack/react-query';
import { stepUpStatusSchema, type FinishAssertionBody, type StepUpStatus } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';
import { getAssertion } from '../webauthn-browser';
import { startWebauthnStepUp } from './start-webauthn-step-up';

/** POST /api/me/step-up/webauthn: the signed answer of a passkey or security key. */
export function verifyWebauthnStepUp(api: ApiClient, body: FinishAssertionBody): Promise<StepUpStatus> {
  return api.request(ME_API.stepUpWebauthn, { method: 'POST', body, schema: stepUpStatusSchema });
}

/** The whole step-up with a passkey: a challenge, the browser's ceremony, the check. */
export function useWebauthnStepUp() {
  const api = useApiClient();
  return useMutation({
    mutationFn: async () => {
      const { challengeId, options } = await startWebauthnStepUp(api);
      return verifyWebauthnStepUp(api, { challengeId, response: await getAssertion(options) });
    },
  });
}
