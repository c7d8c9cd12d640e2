import { useMutation } from '@tanstack/react-query';
import { totpEnrolmentResponseSchema, type TotpEnrolmentResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { useWithStepUp } from '../../../lib/step-up/step-up';

/** POST /api/me/devices/authenticator: a new secret and its QR code (needs a step-up when a device exists). */
export function startAuthenticatorEnrolment(api: ApiClient): Promise<TotpEnrolmentResponse> {
  return api.request(ME_API.authenticatorEnrolments, { method: 'POST', schema: totpEnrolmentResponseSchema });
}

export function useStartAuthenticatorEnrolment() {
  const api = useApiClient();
  const withStepUp = useWithStepUp();
  return useMutation({ mutationFn: () => withStepUp(() => startAuthenticatorEnrolment(api)) });
}
