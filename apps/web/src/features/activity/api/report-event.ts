import { useMutation, useQueryClient } from '@tanstack/react-query';
import { activityReportResponseSchema, type ActivityReportBody, type ActivityReportResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';

/** POST /api/me/activity/:id/report: "This wasn't me", with what the user chose to do. */
export function reportEvent(api: ApiClient, id: string, body: ActivityReportBody): Promise<ActivityReportResponse> {
  return api.request(ME_API.activityReport(id), { method: 'POST', body, schema: activityReportResponseSchema });
}

export function useReportEvent() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ActivityReportBody }) => reportEvent(api, id, body),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
