import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminUserDetailSchema, type AdminUserDetail } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/** GET /api/admin/users/:upn: status, devices, bypass-code metadata, activity, protection, allowed actions. */
export function getUser(api: ApiClient, upn: string, signal?: AbortSignal): Promise<AdminUserDetail> {
  return api.request(ADMIN_API.user(upn), { signal, schema: adminUserDetailSchema });
}

export function userQueryOptions(api: ApiClient, upn: string) {
  return queryOptions({ queryKey: adminKeys.userDetail(upn), queryFn: ({ signal }) => getUser(api, upn, signal) });
}

export function useAdminUser(upn: string) {
  const api = useApiClient();
  return useQuery(userQueryOptions(api, upn));
}
