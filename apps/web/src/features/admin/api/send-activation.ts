import { useMutation } from '@tanstack/react-query';
import { adminActivationResponseSchema, type AdminActionBody, type AdminActivationResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { useInvalidateUser } from './use-invalidate-user';

export type ActivationResult = AdminActivationResponse;

/** POST /api/admin/users/:upn/activation: records the invitation and returns the link to pass on (no e-mail is sent). */
export function sendActivation(api: ApiClient, upn: string, body: AdminActionBody): Promise<ActivationResult> {
  return api.request(ADMIN_API.activation(upn), { method: 'POST', body, schema: adminActivationResponseSchema });
}

export function useSendActivation(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({ mutationFn: (body: AdminActionBody) => sendActivation(api, upn, body), onSuccess: invalidate });
}
