import { useMutation } from '@tanstack/react-query';
import { webauthnOptionsResponseSchema, type WebauthnOptionsResponse } from '@mfa-portal/shared';
import { isApiError } from '../../../lib/api/api-error';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { StepUpCancelledError, useRequestStepUp } from '../../../lib/step-up/step-up';

/** POST /api/me/webauthn/registration: the creation options for a new passkey or security key. */
export function startWebauthnRegistration(api: ApiClient): Promise<WebauthnOptionsResponse> {
  return api.request(ME_API.webauthnRegistration, { method: 'POST', schema: webauthnOptionsResponseSchema });
}

/**
 * The options of a new registration, after a step-up when one is needed. `steppedUp` tells the page
 * that the "Confirm it is you" dialog came in between: some browsers (Safari) let a page ask for a
 * new passkey only straight after a click, so the page then asks for one more click.
 */
export function usePrepareRegistration() {
  const api = useApiClient();
  const requestStepUp = useRequestStepUp();
  return useMutation({
    mutationFn: async (): Promise<WebauthnOptionsResponse & { steppedUp: boolean }> => {
      try {
        return { ...(await startWebauthnRegistration(api)), steppedUp: false };
      } catch (error) {
        if (!isApiError(error, 'auth.step_up_required')) throw error;
        if (!(await requestStepUp())) throw new StepUpCancelledError();
        return { ...(await startWebauthnRegistration(api)), steppedUp: true };
      }
    },
  });
}
