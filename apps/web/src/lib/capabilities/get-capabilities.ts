import { useQuery } from '@tanstack/react-query';
import { providerCapabilitiesSchema, type ProviderCapabilitiesResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../api/api-client';
import { ME_API } from '../api/paths';
import { meKeys } from '../api/query-keys';

/** GET /api/me/capabilities: what the organisation's MFA service can do (phones, text messages, push, ...). */
export function getCapabilities(api: ApiClient, signal?: AbortSignal): Promise<ProviderCapabilitiesResponse> {
  return api.request(ME_API.capabilities, { signal, schema: providerCapabilitiesSchema });
}

/**
 * The MFA service's capabilities, asked once (they only change when the server is reconfigured). Screens
 * offer phones and pushes only when these say so; until known, they offer neither. `enabled: false`
 * defers the request until a screen needs the answer (the overview makes no call of its own on arrival).
 */
export function useCapabilities(options: { enabled?: boolean } = {}) {
  const api = useApiClient();
  return useQuery({
    queryKey: meKeys.capabilities(),
    queryFn: ({ signal }) => getCapabilities(api, signal),
    staleTime: Infinity,
    enabled: options.enabled ?? true,
  });
}
