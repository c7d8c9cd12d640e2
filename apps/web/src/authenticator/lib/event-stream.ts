import type { PendingPushRequest } from '@mfa-portal/shared';
import { signedHeader, type Signer } from './api';
import { apiPath } from './paths';
import { createSseParser } from './sse';

export interface RequestStreamHandlers {
  onRequest(request: PendingPushRequest): void;
  onClosed(closed: { id: string; state: string }): void;
  /** The server refused the device (removed on the portal): the stream stops trying. */
  onUnauthorized?(): void;
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/** The wait before reconnect attempt `attempt` (0-based): doubling from 1 s up to 30 s, with jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * One account's live stream of requests: `GET events`, signed like every call (EventSource cannot
 * send a header, so the body is read with fetch streaming). Each connection signs afresh; a dropped
 * one reconnects with backoff. Returns a function that stops it.
 */
export function openRequestStream(signer: Signer, handlers: RequestStreamHandlers): () => void {
  const controller = new AbortController();
  let attempt = 0;

  const connect = async (): Promise<'retry' | 'stop'> => {
    const path = apiPath('events');
    const response = await fetch(path, {
      headers: { authorization: await signedHeader(signer, 'GET', path), accept: 'text/event-stream' },
      cache: 'no-store',
      credentials: 'omit',
      signal: controller.signal,
    });
    if (response.status === 401 || response.status === 403) {
      handlers.onUnauthorized?.();
      return 'stop';
    }
    if (!response.ok || !response.body) return 'retry';
    attempt = 0;
    const parser = createSseParser(({ event, data }) => {
      try {
        if (event === 'request') handlers.onRequest(JSON.parse(data) as PendingPushRequest);
        else if (event === 'closed') handlers.onClosed(JSON.parse(data) as { id: string; state: string });
      } catch {
        // An event that does not parse is skipped; the next fetch of the requests list corrects the view.
      }
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'retry';
      parser.push(value);
    }
  };

  void (async () => {
    while (!controller.signal.aborted) {
      const outcome = await connect().catch(() => 'retry' as const);
      if (outcome === 'stop' || controller.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt++)));
    }
  })();

  return () => controller.abort();
}
