import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminUsersResponseSchema, type AdminUsersResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/** How many users a result page shows. */
export const USER_SEARCH_PAGE_SIZE = 20;

/** GET /api/admin/users?q=&cursor=&limit=: users whose name, upn or email contains `q`, by upn. */
export function searchUsers(api: ApiClient, q: string, cursor: string | undefined, signal?: AbortSignal): Promise<AdminUsersResponse> {
  return api.request(ADMIN_API.users, { query: { q, cursor, limit: USER_SEARCH_PAGE_SIZE }, signal, schema: adminUsersResponseSchema });
}

export function searchUsersQueryOptions(api: ApiClient, q: string, cursor: string | undefined) {
  return queryOptions({
    queryKey: adminKeys.search(q, cursor),
    queryFn: ({ signal }) => searchUsers(api, q, cursor, signal),
    placeholderData: keepPreviousData,
  });
}

/** The result page for `q` from `cursor`; nothing is asked while `q` is null (no search yet). */
export function useSearchUsers(q: string | null, cursor: string | undefined) {
  const api = useApiClient();
  return useQuery({ ...searchUsersQueryOptions(api, q ?? '', cursor), enabled: q !== null });
}
