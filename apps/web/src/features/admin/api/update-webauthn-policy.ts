import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webauthnPolicyResponseSchema, type WebauthnPolicy, type WebauthnPolicyResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/** PUT /api/admin/webauthn/policy: the allowed models and the phishing-resistant requirement (audited). */
export function updateWebauthnPolicy(api: ApiClient, body: WebauthnPolicy): Promise<WebauthnPolicyResponse> {
  return api.request(ADMIN_API.webauthnPolicy, { method: 'PUT', body, schema: webauthnPolicyResponseSchema });
}

export function useUpdateWebauthnPolicy() {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WebauthnPolicy) => updateWebauthnPolicy(api, body),
    onSuccess: (policy) => client.setQueryData(adminKeys.webauthnPolicy, policy),
  });
}
