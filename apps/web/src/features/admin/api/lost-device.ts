import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  adminLostDeviceProgressSchema,
  adminLostDeviceResponseSchema,
  type AdminActionBody,
  type AdminLostDeviceProgress,
  type AdminLostDeviceResponse,
} from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';
import { useInvalidateUser } from './use-invalidate-user';

/** GET /api/admin/users/:upn/lost-device: where the wizard stands, derived by the server from the audit log. */
export function getLostDeviceProgress(api: ApiClient, upn: string, signal?: AbortSignal): Promise<AdminLostDeviceProgress> {
  return api.request(ADMIN_API.lostDevice(upn), { signal, schema: adminLostDeviceProgressSchema });
}

export function lostDeviceProgressQueryOptions(api: ApiClient, upn: string) {
  return queryOptions({ queryKey: adminKeys.lostDevice(upn), queryFn: ({ signal }) => getLostDeviceProgress(api, upn, signal) });
}

export function useLostDeviceProgress(upn: string, options: { enabled?: boolean } = {}) {
  const api = useApiClient();
  return useQuery({ ...lostDeviceProgressQueryOptions(api, upn), enabled: options.enabled ?? true });
}

export interface LostDeviceInput extends AdminActionBody {
  deviceId: string;
  confirmLastDevice: boolean;
  validitySeconds: number;
}

/**
 * POST /api/admin/users/:upn/lost-device: removes the device (skipped when an earlier run already did)
 * and issues one single-use bypass code valid at most 24 hours, shown once.
 */
export function reportLostDevice(api: ApiClient, upn: string, body: LostDeviceInput): Promise<AdminLostDeviceResponse> {
  return api.request(ADMIN_API.lostDevice(upn), { method: 'POST', body, schema: adminLostDeviceResponseSchema });
}

export function useReportLostDevice(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({ mutationFn: (body: LostDeviceInput) => reportLostDevice(api, upn, body), onSuccess: invalidate });
}
