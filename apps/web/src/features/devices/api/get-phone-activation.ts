import { useQuery } from '@tanstack/react-query';
import { phoneActivationResponseSchema, type PhoneActivationResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { meKeys } from '../../../lib/api/query-keys';
import { useWithStepUp } from '../../../lib/step-up/step-up';

/** GET /api/me/devices/:id/activation: a fresh activation link and QR code for the phone's push app. */
export function getPhoneActivation(api: ApiClient, deviceId: string, signal?: AbortSignal): Promise<PhoneActivationResponse> {
  return api.request(ME_API.deviceActivation(deviceId), { signal, schema: phoneActivationResponseSchema });
}

/**
 * The activation of a phone just added. Each request makes a new link (the previous one stops working),
 * so it is asked once and kept; it may need a step-up when the user has other devices.
 */
export function usePhoneActivation(deviceId: string | null) {
  const api = useApiClient();
  const withStepUp = useWithStepUp();
  return useQuery({
    queryKey: meKeys.phoneActivation(deviceId ?? ''),
    queryFn: ({ signal }) => withStepUp(() => getPhoneActivation(api, deviceId!, signal)),
    enabled: deviceId !== null,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}
