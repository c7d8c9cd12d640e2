import { useMutation } from '@tanstack/react-query';
import { adminSignOutEverywhereResponseSchema, type AdminActionBody, type AdminSignOutEverywhereResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';

/** POST /api/admin/users/:upn/sign-out-everywhere: every access token of the user issued until now is refused. */
export function signOutEverywhere(api: ApiClient, upn: string, body: AdminActionBody): Promise<AdminSignOutEverywhereResponse> {
  return api.request(ADMIN_API.signOutEverywhere(upn), { method: 'POST', body, schema: adminSignOutEverywhereResponseSchema });
}

export function useSignOutEverywhere(upn: string) {
  const api = useApiClient();
  return useMutation({ mutationFn: (body: AdminActionBody) => signOutEverywhere(api, upn, body) });
}
