import { useMutation } from '@tanstack/react-query';
import { adminVerifyPushResponseSchema, type AdminVerifyPushResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';

export interface StartVerifyPushInput {
  deviceId: string;
  /** The call's ticket, recorded with the verification the approval records. */
  ticket?: string;
}

/**
 * POST /api/admin/users/:upn/verify-identity/push (202): sends a verification push to one of the user's
 * phones. The answer carries the confirmation code the phone shows (the caller reads it back); then
 * poll the push's state. Refused with 409 `mfa.not_supported_by_provider` where pushes cannot be sent.
 */
export function startVerifyPush(api: ApiClient, upn: string, body: StartVerifyPushInput): Promise<AdminVerifyPushResponse> {
  return api.request(ADMIN_API.verifyIdentityPush(upn), { method: 'POST', body, schema: adminVerifyPushResponseSchema });
}

export function useStartVerifyPush(upn: string) {
  const api = useApiClient();
  return useMutation({ mutationFn: (body: StartVerifyPushInput) => startVerifyPush(api, upn, body) });
}
