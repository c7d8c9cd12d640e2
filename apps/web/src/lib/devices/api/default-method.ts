import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { defaultMethodResponseSchema, type DefaultMethodResponse, type SetDefaultMethodBody } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';
import { meKeys } from '../../api/query-keys';

/** GET /api/me/default-method */
export function getDefaultMethod(api: ApiClient, signal?: AbortSignal): Promise<DefaultMethodResponse> {
  return api.request(ME_API.defaultMethod, { signal, schema: defaultMethodResponseSchema });
}

/** PUT /api/me/default-method */
export function setDefaultMethod(api: ApiClient, body: SetDefaultMethodBody): Promise<DefaultMethodResponse> {
  return api.request(ME_API.defaultMethod, { method: 'PUT', body, schema: defaultMethodResponseSchema });
}

/** What the sign-in page offers first, and what can be chosen; asked only once the person has a device. */
export function useDefaultMethod(options: { enabled: boolean }) {
  const api = useApiClient();
  return useQuery({
    queryKey: meKeys.defaultMethod(),
    queryFn: ({ signal }) => getDefaultMethod(api, signal),
    enabled: options.enabled,
  });
}

/** Choosing shows the answer at once; the activity, which records the change, is read again when next shown. */
export function useSetDefaultMethod() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetDefaultMethodBody) => setDefaultMethod(api, body),
    onSuccess: async (answer) => {
      queryClient.setQueryData(meKeys.defaultMethod(), answer);
      await queryClient.invalidateQueries({ queryKey: ['me', 'activity'] });
    },
  });
}
