import { useMutation } from '@tanstack/react-query';
import { deviceSchema, type ConfirmTotpBody, type Device } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';
import { useWithStepUp } from '../../../lib/step-up/step-up';

export interface ConfirmAuthenticatorInput extends ConfirmTotpBody {
  enrolmentId: string;
}

/** POST /api/me/devices/authenticator/:enrolmentId/confirm with the first code from the app. */
export function confirmAuthenticatorEnrolment(api: ApiClient, { enrolmentId, ...body }: ConfirmAuthenticatorInput): Promise<Device> {
  return api.request(ME_API.authenticatorConfirm(enrolmentId), { method: 'POST', body, schema: deviceSchema });
}

export function useConfirmAuthenticatorEnrolment() {
  const api = useApiClient();
  const withStepUp = useWithStepUp();
  const invalidate = useInvalidateMe();
  return useMutation({
    mutationFn: (input: ConfirmAuthenticatorInput) => withStepUp(() => confirmAuthenticatorEnrolment(api, input)),
    onSuccess: invalidate,
  });
}
