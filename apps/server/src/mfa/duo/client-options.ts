import type { RetryPolicy } from './backoff.js';
import type { SignatureVersion } from './signing.js';
import type { DuoTransport } from './transport.js';

/** What the Duo client (client.ts) is built with and called with, and what Duo answers. */

export interface DuoLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

export type DuoParamValue = string | number | undefined;

export interface DuoClientOptions {
  integrationKey: string;
  secretKey: string;
  /** The API hostname Duo gave (`api-xxxxxxxx.duosecurity.com`): signed in every request. */
  apiHost: string;
  /** Where to send requests; default `https://<apiHost>`. Tests point it at a stand-in. */
  baseUrl?: string;
  /** 2 (default): form bodies, v2 signatures. 5: JSON bodies for POST, v5 signatures everywhere. */
  signatureVersion?: SignatureVersion;
  /** Time-out of one attempt. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** `limit` asked for when reading paged lists (Duo caps it per endpoint). */
  pageSize?: number;
  /** PEM CAs to trust (ignored with a custom transport). */
  ca?: string;
  transport?: DuoTransport;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => Date;
  logger?: DuoLogger;
  /** Told of every retry before its wait (metering: how often Duo throttles, and how long it costs). */
  onRetry?: (retry: DuoRetryEvent) => void;
}

export interface DuoRetryEvent {
  /** `METHOD /path`. */
  call: string;
  kind: 'rate_limited' | 'unavailable' | 'rejected';
  status: number | null;
  waitMs: number;
}

export interface DuoRequestOptions {
  /** Query (GET, DELETE) or body (POST) parameters. */
  params?: Readonly<Record<string, DuoParamValue>>;
  /** Send these as a JSON body (signature v5) whatever the client's default. */
  json?: boolean;
  /** `X-Duo-*` headers to send and sign (signature v5). */
  duoHeaders?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /**
   * A long-poll (Duo holds the answer until something happens, e.g. `auth_status` until the user
   * answers the push): this one attempt may take up to `timeoutMs`, instead of the client's time-out,
   * and is never retried — the next poll is the retry, and a time-out is no outage (`timedOut` on the error).
   */
  longPoll?: { timeoutMs: number };
  /**
   * This call's retry bounds instead of the client's: work nobody waits on (the directory sync) may
   * wait as long as Duo's own clients do, where a person's request gives up sooner.
   */
  retry?: Partial<RetryPolicy>;
}

/** Bounds for background reads: Duo's clients' full schedule (1 s doubling to 32 s), about two minutes in all. */
export const BACKGROUND_RETRY: Readonly<Partial<RetryPolicy>> = Object.freeze({ maxAttempts: 8, maxTotalWaitMs: 120_000 });

/** Duo's success envelope. */
export interface DuoEnvelope<T> {
  stat: 'OK';
  response: T;
  metadata?: { next_offset?: number | string | null; prev_offset?: number | string | null; total_objects?: number };
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_PAGE_SIZE = 100;
/** A paged read stops with an error past this many pages (a provider that never ends its list). */
export const MAX_PAGES = 1_000;
