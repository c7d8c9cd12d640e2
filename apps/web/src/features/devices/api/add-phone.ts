import { useMutation } from '@tanstack/react-query';
import { deviceSchema, type AddPhoneBody, type Device } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';
import { useWithStepUp } from '../../../lib/step-up/step-up';

/** POST /api/me/devices/phone: add a phone by its E.164 number and platform. */
export function addPhone(api: ApiClient, body: AddPhoneBody): Promise<Device> {
  return api.request(ME_API.phones, { method: 'POST', body, schema: deviceSchema });
}

export function useAddPhone() {
  const api = useApiClient();
  const withStepUp = useWithStepUp();
  const invalidate = useInvalidateMe();
  return useMutation({
    mutationFn: (body: AddPhoneBody) => withStepUp(() => addPhone(api, body)),
    onSuccess: invalidate,
  });
}
