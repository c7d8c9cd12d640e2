import { useQuery } from '@tanstack/react-query';
import { myFactorPolicySchema, type MyFactorPolicy } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';
import { meKeys } from '../../api/query-keys';

/** GET /api/me/factor-policy: which kinds the organisation lets this person add and use now, and why not the others. */
export function getFactorPolicy(api: ApiClient, signal?: AbortSignal): Promise<MyFactorPolicy> {
  return api.request(ME_API.factorPolicy, { signal, schema: myFactorPolicySchema });
}

/**
 * The person's factor policy. It follows their directory groups, so it is asked again whenever their
 * data is refreshed (it lives under `me`); `enabled: false` defers the request until a screen needs it.
 */
export function useFactorPolicy(options: { enabled?: boolean } = {}) {
  const api = useApiClient();
  return useQuery({
    queryKey: meKeys.factorPolicy(),
    queryFn: ({ signal }) => getFactorPolicy(api, signal),
    enabled: options.enabled ?? true,
  });
}
