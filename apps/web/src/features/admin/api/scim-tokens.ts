import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createScimTokenResponseSchema, scimTokenSchema, scimTokensResponseSchema, type CreateScimTokenResponse } from '@mfa-portal/shared';
import { useApiClient } from '../../../lib/api/api-client';

/** The SCIM provisioning tokens (Solution Administrator): list, create (secret shown once), revoke. */

const PATH = '/api/admin/scim-tokens';
const KEY = ['admin', 'scim-tokens'] as const;

export function useScimTokens() {
  const api = useApiClient();
  return useQuery({ queryKey: KEY, queryFn: ({ signal }) => api.request(PATH, { signal, schema: scimTokensResponseSchema }) });
}

export function useCreateScimToken() {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string): Promise<CreateScimTokenResponse> =>
      api.request(PATH, { method: 'POST', body: { name }, schema: createScimTokenResponseSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

export function useRevokeScimToken() {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request(`${PATH}/${encodeURIComponent(id)}`, { method: 'DELETE', schema: scimTokenSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
