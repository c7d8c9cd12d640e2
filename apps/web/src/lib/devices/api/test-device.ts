import { useMutation } from '@tanstack/react-query';
import { testDeviceResponseSchema, type TestDeviceResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';
import { useInvalidateMe } from '../../api/use-invalidate-me';

export interface TestInput {
  deviceId: string;
  code: string;
}

/** POST /api/me/devices/:id/test: is this passcode from this device right, now? */
export function testDevice(api: ApiClient, { deviceId, code }: TestInput): Promise<TestDeviceResponse> {
  return api.request(ME_API.deviceTest(deviceId), { method: 'POST', body: { code }, schema: testDeviceResponseSchema });
}

export function useTestDevice() {
  const api = useApiClient();
  const invalidate = useInvalidateMe();
  // Refetch afterwards either way: "last used" changes on success, the activity on both.
  return useMutation({ mutationFn: (input: TestInput) => testDevice(api, input), onSettled: invalidate });
}
