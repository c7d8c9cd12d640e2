import { useMutation } from '@tanstack/react-query';
import { deviceSchema, type Device, type FinishRegistrationBody } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';
import { createCredential } from '../../../lib/step-up/webauthn-browser';

/** POST /api/me/webauthn/registration/verify: store the new credential under the name its owner gave it. */
export function finishWebauthnRegistration(api: ApiClient, body: FinishRegistrationBody): Promise<Device> {
  return api.request(ME_API.webauthnRegistrationVerify, { method: 'POST', body, schema: deviceSchema });
}

/** The browser's ceremony with prepared options, then the server's check. */
export function useCompleteRegistration() {
  const api = useApiClient();
  const invalidate = useInvalidateMe();
  return useMutation({
    mutationFn: async (input: { challengeId: string; options: Record<string, unknown>; name: string }) =>
      finishWebauthnRegistration(api, {
        challengeId: input.challengeId,
        name: input.name,
        response: await createCredential(input.options),
      }),
    onSuccess: invalidate,
  });
}
