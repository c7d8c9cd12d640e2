import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { campaignSchema, campaignsResponseSchema, type Campaign, type CampaignStartBody } from '@mfa-portal/shared';
import { useApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/** Enrolment campaigns (Solution Administrators): the list with each one's progress, start one, end one. */

/** GET /api/admin/campaigns. */
export function useCampaigns(options: { enabled?: boolean } = {}) {
  const api = useApiClient();
  return useQuery({
    queryKey: adminKeys.campaigns,
    queryFn: ({ signal }) => api.request(ADMIN_API.campaigns, { signal, schema: campaignsResponseSchema }),
    enabled: options.enabled ?? true,
  });
}

/** POST /api/admin/campaigns: checked, stored and audited by the server; its first e-mails go out soon after. */
export function useStartCampaign() {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CampaignStartBody): Promise<Campaign> =>
      api.request(ADMIN_API.campaigns, { method: 'POST', body, schema: campaignSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.campaigns }),
  });
}

/** POST /api/admin/campaigns/:id/end. */
export function useEndCampaign() {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<Campaign> => api.request(ADMIN_API.campaignEnd(id), { method: 'POST', schema: campaignSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.campaigns }),
  });
}
