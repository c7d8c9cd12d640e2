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
  /**
   * Drops a request from the view (answered here, or seen to expire). `settled` false: what became of
   * the answer is unknown (a server error), so the next fetch of the list shows it again if it waits.
   */
  remove(id: string, settled?: boolean): void;
}

const byCreated = (a: PendingPushRequest, b: PendingPushRequest) => a.createdAt.localeCompare(b.createdAt);

/**
 * The requests waiting for this phone: fetched when the app opens and whenever it comes back to the
 * foreground, and streamed while it is open, one stream per account. Notifications are only a nudge:
 * everything here works without them.
 *
 * A fetched list is a snapshot from when the server read it, and its answer can arrive after the
 * stream has moved on: a request streamed meanwhile is kept, and one answered here or closed
 * meanwhile is not brought back.
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

  // Ticks once per fetch started and per request streamed, so a fetch knows what arrived after it began.
  const tick = useRef(0);
  const streamedAt = useRef(new Map<string, number>());
  // Answered here or closed: no late snapshot brings these back.
  const gone = useRef(new Set<string>());

  const markUnauthorized = useCallback((deviceId: string) => {
    setUnauthorized((prev) => (prev.has(deviceId) ? prev : new Set([...prev, deviceId])));
    setRequests((prev) => prev.filter((r) => r.deviceId !== deviceId));
  }, []);

  const refresh = useCallback(async () => {
    await Promise.all(
      accounts.map(async (account) => {
        const began = ++tick.current;
        try {
          const fresh = (await api.requests(account))
            .map((r) => ({ ...r, deviceId: r.deviceId ?? account.deviceId }))
            .filter((r) => !gone.current.has(r.id));
          const ids = new Set(fresh.map((r) => r.id));
          const newer = (r: PendingPushRequest) => !ids.has(r.id) && (streamedAt.current.get(r.id) ?? 0) > began;
          setRequests((prev) => [...prev.filter((r) => r.deviceId !== account.deviceId || newer(r)), ...fresh].sort(byCreated));
        } catch (err) {
          if (err instanceof ApiError && err.status === 401) markUnauthorized(account.deviceId);
          // Offline or a server hiccup: the stream and the next visit to the foreground try again.
        }
      }),
    );
  }, [accounts, markUnauthorized]);

  const remove = useCallback((id: string, settled = true) => {
    if (settled) gone.current.add(id);
    streamedAt.current.delete(id);
    setRequests((prev) => prev.filter((r) => r.id !== id));
  }, []);

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
        onRequest: (request) => {
          if (gone.current.has(request.id)) return;
          streamedAt.current.set(request.id, ++tick.current);
          setRequests((prev) => (prev.some((r) => r.id === request.id) ? prev : [...prev, request].sort(byCreated)));
        },
        onClosed: ({ id, state }) => {
          gone.current.add(id);
          streamedAt.current.delete(id);
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
