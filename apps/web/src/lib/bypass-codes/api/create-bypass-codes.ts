import { useMutation } from '@tanstack/react-query';
import { createBypassCodesResponseSchema, type CreateBypassCodesBody, type CreateBypassCodesResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';
import { useInvalidateMe } from '../../api/use-invalidate-me';
import { useWithStepUp } from '../../step-up/step-up';

/** POST /api/me/bypass-codes (needs a step-up): the codes come back this once. */
export function createBypassCodes(api: ApiClient, body: CreateBypassCodesBody): Promise<CreateBypassCodesResponse> {
  return api.request(ME_API.bypassCodes, { method: 'POST', body, schema: createBypassCodesResponseSchema });
}

export function useCreateBypassCodes() {
  const api = useApiClient();
  const withStepUp = useWithStepUp();
  const invalidate = useInvalidateMe();
  return useMutation({
    mutationFn: (body: CreateBypassCodesBody) => withStepUp(() => createBypassCodes(api, body)),
    onSuccess: invalidate,
  });
}
