import { useQuery } from '@tanstack/react-query';
import { authenticatorActivationStateSchema, type AuthenticatorActivationState } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { activationKeys } from '../../../lib/api/query-keys';

/** How often a waiting activation is asked about (tests shorten it). */
export const activationPolling = { intervalMs: 2000 };

/** GET /api/me/devices/authenticator-app/:activationId: waiting, activated (with the new device) or expired. */
export function getAuthenticatorAppActivation(
  api: ApiClient,
  activationId: string,
  signal?: AbortSignal,
): Promise<AuthenticatorActivationState> {
  return api.request(ME_API.authenticatorAppActivation(activationId), { signal, schema: authenticatorActivationStateSchema });
}

/**
 * Watches an activation until the phone used it or it expired: the desktop learns of the activation by
 * itself. A failed poll is shown but does not stop the watch (the next one may work).
 */
export function useAuthenticatorAppActivation(activationId: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: activationKeys.authenticatorApp(activationId),
    queryFn: ({ signal }) => getAuthenticatorAppActivation(api, activationId, signal),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === undefined || state === 'waiting' ? activationPolling.intervalMs : false;
    },
    refetchIntervalInBackground: true,
    retry: false,
    gcTime: 0,
  });
}
