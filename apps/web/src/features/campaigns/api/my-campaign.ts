import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { myCampaignResponseSchema, type MyCampaignResponse } from '@mfa-portal/shared';
import { useApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { meKeys } from '../../../lib/api/query-keys';

/** GET /api/me/campaign: the enrolment campaign banner to show now, or null. */
export function useMyCampaign(options: { enabled: boolean }) {
  const api = useApiClient();
  return useQuery({
    queryKey: meKeys.campaign(),
    queryFn: ({ signal }): Promise<MyCampaignResponse> => api.request(ME_API.campaign, { signal, schema: myCampaignResponseSchema }),
    enabled: options.enabled,
  });
}

/** POST /api/me/campaign/:id/snooze: "Remind me later"; the answer is the banner to show next. */
export function useSnoozeCampaign() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request(ME_API.campaignSnooze(id), { method: 'POST', schema: myCampaignResponseSchema }),
    onSuccess: (answer) => queryClient.setQueryData(meKeys.campaign(), answer),
  });
}
