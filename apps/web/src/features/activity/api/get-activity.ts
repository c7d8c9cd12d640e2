import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { ACTIVITY_PAGE_DEFAULT, activityResponseSchema, type ActivityResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';
import { meKeys } from '../../../lib/api/query-keys';

/** GET /api/me/activity: my activity as entries (a sign-in, a change, a service-desk action), newest first, one page. */
export function getActivity(api: ApiClient, options: { cursor?: string; limit: number; signal?: AbortSignal }): Promise<ActivityResponse> {
  return api.request(ME_API.activity, {
    query: { cursor: options.cursor, limit: options.limit },
    signal: options.signal,
    schema: activityResponseSchema,
  });
}

export function activityQueryOptions(api: ApiClient, limit: number = ACTIVITY_PAGE_DEFAULT) {
  return infiniteQueryOptions({
    queryKey: meKeys.activity(limit),
    queryFn: ({ pageParam, signal }) => getActivity(api, { cursor: pageParam, limit, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Pages of my activity; `fetchNextPage()` loads older entries. */
export function useActivity(limit?: number) {
  const api = useApiClient();
  return useInfiniteQuery(activityQueryOptions(api, limit));
}
