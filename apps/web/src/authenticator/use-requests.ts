import { useCallback, useEffect, useRef, useState } from 'react';
import type { PendingPushRequest } from '@mfa-portal/shared';
import { api, ApiError } from './lib/api';
import { openRequestStream } from './lib/event-stream';
import type { StoredAccount } from './lib/store';

export interface RequestFeed {
  /** Waiting requests, oldest first, across every account on the phone. */
  requests: PendingPushRequest[];
  /** Devices the server no longer knows (removed on the portal). */
  unauthorized: ReadonlySet<string>;
  refresh(): Promise<void>;
  /** Drops a request from the view (answered here, or seen to expire). */
  remove(id: string): void;
}

const byCreated = (a: PendingPushRequest, b: PendingPushRequest) => a.createdAt.localeCompare(b.createdAt);

/**
 * The requests waiting for this phone: fetched when the app opens and whenever it comes back to the
 * foreground, and streamed while it is open, one stream per account. Notifications are only a nudge:
 * everything here works without them.
 */
export function useRequests(accounts: StoredAccount[], onClosedElsewhere: (id: string, state: string) => void): RequestFeed {
  const [requests, setRequests] = useState<PendingPushRequest[]>([]);
  const [unauthorized, setUnauthorized] = useState<ReadonlySet<string>>(new Set());
  const closedElsewhere = useRef(onClosedElsewhere);
  const current = useRef(requests);
  useEffect(() => {
    closedElsewhere.current = onClosedElsewhere;
    current.current = requests;
  }, [onClosedElsewhere, requests]);

  const markUnauthorized = useCallback((deviceId: string) => {
    setUnauthorized((prev) => (prev.has(deviceId) ? prev : new Set([...prev, deviceId])));
    setRequests((prev) => prev.filter((r) => r.deviceId !== deviceId));
  }, []);

  const refresh = useCallback(async () => {
    await Promise.all(
      accounts.map(async (account) => {
        try {
          const fresh = (await api.requests(account)).map((r) => ({ ...r, deviceId: r.deviceId ?? account.deviceId }));
          setRequests((prev) => [...prev.filter((r) => r.deviceId !== account.deviceId), ...fresh].sort(byCreated));
        } catch (err) {
          if (err instanceof ApiError && err.status === 401) markUnauthorized(account.deviceId);
          // Offline or a server hiccup: the stream and the next visit to the foreground try again.
        }
      }),
    );
  }, [accounts, markUnauthorized]);

  const remove = useCallback((id: string) => setRequests((prev) => prev.filter((r) => r.id !== id)), []);

  useEffect(() => {
    void refresh();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [refresh]);

  useEffect(() => {
    const stops = accounts.map((account) =>
      openRequestStream(account, {
        onRequest: (request) => setRequests((prev) => (prev.some((r) => r.id === request.id) ? prev : [...prev, request].sort(byCreated))),
        onClosed: ({ id, state }) => {
          if (!current.current.some((r) => r.id === id)) return;
          closedElsewhere.current(id, state);
          setRequests((prev) => prev.filter((r) => r.id !== id));
        },
        onUnauthorized: () => markUnauthorized(account.deviceId),
      }),
    );
    return () => stops.forEach((stop) => stop());
  }, [accounts, markUnauthorized]);

  return { requests, unauthorized, refresh, remove };
}
