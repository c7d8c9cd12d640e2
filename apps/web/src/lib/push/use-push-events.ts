import { useEffect } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useApiClient } from '../api/api-client';
import { ME_API } from '../api/paths';
import { readServerSentEvents } from './server-sent-events';

/**
 * While a push waits, listens to the server's events for it (GET /api/me/push/:txid/events, read with
 * fetch so the bearer token goes along; EventSource cannot send one). On `event: state` the push's query
 * is refetched at once, so an approval shows within a fraction of a second instead of at the next poll.
 * The 2-second polling carries on beside it: a stream that fails, is refused or is cut by a proxy costs
 * nothing but speed, so nothing here ever reaches the screen. The stream is closed when the push is
 * answered, when `txid` changes and on unmount.
 */
export function usePushEvents(txid: string | null | undefined, queryKey: QueryKey, enabled: boolean): void {
  const api = useApiClient();
  const queryClient = useQueryClient();
  // The key as text: callers build a new array on every render, the effect must not restart for that.
  const key = JSON.stringify(queryKey);
  useEffect(() => {
    if (!txid || !enabled) return;
    const controller = new AbortController();
    const queryKey = JSON.parse(key) as QueryKey;
    const listen = async () => {
      const response = await api.stream(ME_API.pushEvents(txid), { signal: controller.signal });
      if (!response.body) return;
      await readServerSentEvents(response.body, ({ event }) => {
        if (event === 'state' && !controller.signal.aborted) void queryClient.invalidateQueries({ queryKey, exact: true });
      });
    };
    listen().catch(() => undefined);
    return () => controller.abort();
  }, [api, queryClient, txid, enabled, key]);
}
