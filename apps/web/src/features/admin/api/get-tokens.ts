import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_PAGE_MAX, adminTokensResponseSchema, type AdminToken, type AdminTokenStatus } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/** How many tokens the inventory lists at once (the API's largest page; the search narrows it). */
export const TOKENS_LIMIT = ADMIN_PAGE_MAX;

/** GET /api/admin/tokens?q=&status=: hardware tokens whose serial or holder contains `q`. */
export async function getTokens(api: ApiClient, q: string, status: AdminTokenStatus | '', signal?: AbortSignal): Promise<AdminToken[]> {
  const { tokens } = await api.request(ADMIN_API.tokens, {
    query: { q: q || undefined, status: status || undefined, limit: TOKENS_LIMIT },
    signal,
    schema: adminTokensResponseSchema,
  });
  return tokens;
}

export function tokensQueryOptions(api: ApiClient, q: string, status: AdminTokenStatus | '') {
  return queryOptions({
    queryKey: adminKeys.tokens(q, status),
    queryFn: ({ signal }) => getTokens(api, q, status, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTokens(q: string, status: AdminTokenStatus | '') {
  const api = useApiClient();
  return useQuery(tokensQueryOptions(api, q, status));
}
