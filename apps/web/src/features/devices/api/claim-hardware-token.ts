import { useMutation } from '@tanstack/react-query';
import { deviceSchema, type ClaimHardwareTokenBody, type Device } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';
import { useWithStepUp } from '../../../lib/step-up/step-up';

/** POST /api/me/devices/hardware-token: claim a Duo D100 by its serial and two consecutive codes. */
export function claimHardwareToken(api: ApiClient, body: ClaimHardwareTokenBody): Promise<Device> {
  return api.request(ME_API.hardwareTokens, { method: 'POST', body, schema: deviceSchema });
}

export function useClaimHardwareToken() {
  const api = useApiClient();
  const withStepUp = useWithStepUp();
  const invalidate = useInvalidateMe();
  return useMutation({
    mutationFn: (body: ClaimHardwareTokenBody) => withStepUp(() => claimHardwareToken(api, body)),
    onSuccess: invalidate,
  });
}
