import { PUSH_POLL_INTERVAL_MS, type PushTransaction } from '@mfa-portal/shared';

/** How often a waiting push is asked about (tests shorten it). */
export const pushPolling = { intervalMs: PUSH_POLL_INTERVAL_MS };

/** TanStack Query's refetchInterval for a push: poll while it waits, stop once it is answered. */
export function pollWhileWaiting(query: { state: { data?: Pick<PushTransaction, 'state'> } }): number | false {
  const state = query.state.data?.state;
  return state === undefined || state === 'waiting' ? pushPolling.intervalMs : false;
}
