import { useQuery } from '@tanstack/react-query';
import { webauthnPolicyResponseSchema, type WebauthnPolicyResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/** GET /api/admin/webauthn/policy (Solution Administrators). */
export function getWebauthnPolicy(api: ApiClient, signal?: AbortSignal): Promise<WebauthnPolicyResponse> {
  return api.request(ADMIN_API.webauthnPolicy, { signal, schema: webauthnPolicyResponseSchema });
}

export function useWebauthnPolicy() {
  const api = useApiClient();
  return useQuery({ queryKey: adminKeys.webauthnPolicy, queryFn: ({ signal }) => getWebauthnPolicy(api, signal) });
}
