import { queryOptions, useQuery } from '@tanstack/react-query';
import { devicesResponseSchema, type Device } from '@mfa-portal/shared';
import { hasMfaData, useMfaData } from '../../../shell/contexts';
import { useApiClient, type ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';
import { meKeys } from '../../api/query-keys';

/** GET /api/me/devices */
export async function getDevices(api: ApiClient, signal?: AbortSignal): Promise<Device[]> {
  const { devices } = await api.request(ME_API.devices, { signal, schema: devicesResponseSchema });
  return devices;
}

export function devicesQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: meKeys.devices(), queryFn: ({ signal }) => getDevices(api, signal) });
}

/**
 * The user's devices. Starts from the devices in the profile the shell just loaded (no second call on
 * start-up); refetched after every change.
 */
export function useDevices() {
  const api = useApiClient();
  const { mfaData } = useMfaData();
  const initial = hasMfaData(mfaData) ? mfaData.devices : undefined;
  return useQuery({ ...devicesQueryOptions(api), ...(initial ? { initialData: initial, initialDataUpdatedAt: Date.now } : {}) });
}
