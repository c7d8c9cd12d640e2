import { useMutation } from '@tanstack/react-query';
import { webauthnTestResponseSchema, type FinishAssertionBody, type TestDeviceResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';
import { getAssertion } from '../../../lib/step-up/webauthn-browser';
import { startWebauthnTest } from './start-webauthn-test';

/** POST /api/me/devices/:id/webauthn-test: the signed answer of that passkey or security key. */
export function finishWebauthnTest(api: ApiClient, deviceId: string, body: FinishAssertionBody): Promise<TestDeviceResponse> {
  return api.request(ME_API.deviceWebauthnTest(deviceId), { method: 'POST', body, schema: webauthnTestResponseSchema });
}

export function useTestPasskey(deviceId: string) {
  const api = useApiClient();
  const invalidate = useInvalidateMe();
  return useMutation({
    mutationFn: async () => {
      const { challengeId, options } = await startWebauthnTest(api, deviceId);
      return finishWebauthnTest(api, deviceId, { challengeId, response: await getAssertion(options) });
    },
    onSuccess: invalidate,
  });
}
