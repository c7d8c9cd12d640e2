import { useMutation, useQuery } from '@tanstack/react-query';
import {
  adminRevokeBypassCodesResponseSchema,
  enrolmentPassesResponseSchema,
  enrolmentPassInfoSchema,
  issueEnrolmentPassResponseSchema,
  mfaDataSchema,
  type AdminActionBody,
  type IssueEnrolmentPassResponse,
} from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';
import { useInvalidateUser } from './use-invalidate-user';

/** Account lifecycle of one user: disable/enable, revoke bypass codes, enrolment passes. */

const user = (upn: string) => ADMIN_API.user(upn);

/** POST /api/admin/users/:upn/disable or /enable (reason and ticket recorded). */
export function setAccountEnabled(api: ApiClient, upn: string, enabled: boolean, body: AdminActionBody) {
  return api.request(`${user(upn)}/${enabled ? 'enable' : 'disable'}`, { method: 'POST', body, schema: mfaDataSchema });
}
export function useSetAccountEnabled(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({
    mutationFn: (v: { enabled: boolean; body: AdminActionBody }) => setAccountEnabled(api, upn, v.enabled, v.body),
    onSuccess: invalidate,
  });
}

/** POST /api/admin/users/:upn/bypass-codes/revoke: all of the user's unused codes. */
export function revokeUserBypassCodes(api: ApiClient, upn: string, body: AdminActionBody) {
  return api.request(`${user(upn)}/bypass-codes/revoke`, { method: 'POST', body, schema: adminRevokeBypassCodesResponseSchema });
}
export function useRevokeUserBypassCodes(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({ mutationFn: (body: AdminActionBody) => revokeUserBypassCodes(api, upn, body), onSuccess: invalidate });
}

/** GET /api/admin/users/:upn/enrolment-passes: metadata only. */
export function useEnrolmentPasses(upn: string, enabled: boolean) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...adminKeys.user(upn), 'enrolment-passes'],
    queryFn: ({ signal }) => api.request(`${user(upn)}/enrolment-passes`, { signal, schema: enrolmentPassesResponseSchema }),
    enabled,
  });
}

/** POST /api/admin/users/:upn/enrolment-passes: the pass is in the answer, once. */
export function useIssueEnrolmentPass(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({
    mutationFn: (body: AdminActionBody & { uses: number; lifetimeMinutes: number }): Promise<IssueEnrolmentPassResponse> =>
      api.request(`${user(upn)}/enrolment-passes`, { method: 'POST', body, schema: issueEnrolmentPassResponseSchema }),
    onSuccess: invalidate,
  });
}

/** DELETE /api/admin/users/:upn/enrolment-passes/:id */
export function useRevokeEnrolmentPass(upn: string) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  return useMutation({
    mutationFn: (id: string) =>
      api.request(`${user(upn)}/enrolment-passes/${encodeURIComponent(id)}`, { method: 'DELETE', schema: enrolmentPassInfoSchema }),
    onSuccess: invalidate,
  });
}
