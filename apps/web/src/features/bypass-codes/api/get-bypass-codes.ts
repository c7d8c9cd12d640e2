import { queryOptions, useQuery } from '@tanstack/react-query';
import { bypassCodesResponseSchema, type BypassCodeInfo } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { meKeys } from '../../../lib/api/query-keys';

/** GET /api/me/bypass-codes: live codes (metadata only), oldest first. */
export async function getBypassCodes(api: ApiClient, signal?: AbortSignal): Promise<BypassCodeInfo[]> {
  const { codes } = await api.request(ME_API.bypassCodes, { signal, schema: bypassCodesResponseSchema });
  return codes;
}

export function bypassCodesQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: meKeys.bypassCodes(), queryFn: ({ signal }) => getBypassCodes(api, signal) });
}

export function useBypassCodes() {
  const api = useApiClient();
  return useQuery(bypassCodesQueryOptions(api));
}
