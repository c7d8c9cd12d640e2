import { useMutation } from '@tanstack/react-query';
import { smsActivationResponseSchema, type SmsActivationResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { useWithStepUp } from '../../../lib/step-up/step-up';

/** POST /api/me/devices/:id/activation/sms: send the activation link to the phone by text message. */
export function sendSmsActivation(api: ApiClient, deviceId: string): Promise<SmsActivationResponse> {
  return api.request(ME_API.deviceActivationSms(deviceId), { method: 'POST', schema: smsActivationResponseSchema });
}

export function useSendSmsActivation() {
  const api = useApiClient();
  const withStepUp = useWithStepUp();
  return useMutation({ mutationFn: (deviceId: string) => withStepUp(() => sendSmsActivation(api, deviceId)) });
}
