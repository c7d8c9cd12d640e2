import { useMutation } from '@tanstack/react-query';
import { authenticatorActivationSchema, type AuthenticatorActivation } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { useWithStepUp } from '../../../lib/step-up/step-up';

/**
 * POST /api/me/devices/authenticator-app: a single-use activation link for the portal's own app, with its
 * QR code (needs a step-up when a device exists, like every add; a first device follows the first-device policy).
 */
export function startAuthenticatorAppActivation(api: ApiClient): Promise<AuthenticatorActivation> {
  return api.request(ME_API.authenticatorApp, { method: 'POST', schema: authenticatorActivationSchema });
}

export function useStartAuthenticatorAppActivation() {
  const api = useApiClient();
  const withStepUp = useWithStepUp();
  return useMutation({ mutationFn: () => withStepUp(() => startAuthenticatorAppActivation(api)) });
}
