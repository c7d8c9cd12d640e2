import { abortableSleep, DEFAULT_RETRY_POLICY, nextRetry, parseRetryAfter, type RetryPolicy } from './backoff.js';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_TIMEOUT_MS,
  MAX_PAGES,
  type DuoClientOptions,
  type DuoEnvelope,
  type DuoLogger,
  type DuoParamValue,
  type DuoRequestOptions,
  type DuoRetryEvent,
} from './client-options.js';
import { DuoApiError, failureKindOf, parseDuoFailBody, type DuoFailure } from './errors.js';
import { canonParams, formatDuoDate, signRequest, type DuoMethod, type DuoParams, type SignatureVersion } from './signing.js';
import { nodeTransport, type DuoTransport } from './transport.js';

export {
  BACKGROUND_RETRY,
  DEFAULT_PAGE_SIZE,
  DEFAULT_TIMEOUT_MS,
  MAX_PAGES,
  type DuoClientOptions,
  type DuoEnvelope,
  type DuoLogger,
  type DuoParamValue,
  type DuoRequestOptions,
  type DuoRetryEvent,
} from './client-options.js';

/**
 * A small, typed, promise-based client of Duo's Admin API and Auth API. It signs every request
 * (signing.ts), sends form or JSON bodies, bounds every attempt with a time-out, retries what may be
 * retried (backoff.ts) and turns failures into portal errors (errors.ts). Endpoint wrappers live in
 * admin-api.ts and auth-api.ts.
 *
 * Why not `@duosecurity/duo_api`: it is callback-only, hands back the body without the HTTP status
 * (a 401, a 404 and a 500 look alike), retries only 429, has no time-out, and pins Duo's CAs with no
 * way to name another host or port, so it could not be pointed at a test stand-in on loopback.
 *
 * Retries:
 * - 429 (rate limited): any method — Duo refused the request before doing anything.
 * - 5xx, network errors and time-outs: only idempotent requests. GET always. DELETE too: deleting
 *   twice leaves the same state, and when a retried DELETE is answered 404 the earlier attempt had
 *   done it, so it counts as done. POST never: a lost answer may hide a change (codes created, a
 *   phone added) that a second POST would repeat.
 */

const USER_AGENT = 'mfa-portal-duo-client/1';

const isIdempotent = (method: DuoMethod) => method === 'GET' || method === 'DELETE';

export class DuoClient {
  readonly apiHost: string;
  readonly baseUrl: URL;
  readonly signatureVersion: SignatureVersion;
  private readonly ikey: string;
  private readonly skey: string;
  private readonly timeoutMs: number;
  private readonly policy: RetryPolicy;
  private readonly pageSize: number;
  private readonly transport: DuoTransport;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => Date;
  private readonly logger?: DuoLogger;
  private readonly onRetry?: (retry: DuoRetryEvent) => void;

  constructor(options: DuoClientOptions) {
    if (!options.integrationKey || !options.secretKey || !options.apiHost)
      throw new Error('the Duo client needs an integration key, a secret key and an API host');
    this.ikey = options.integrationKey;
    this.skey = options.secretKey;
    this.apiHost = options.apiHost.toLowerCase();
    this.baseUrl = new URL(options.baseUrl ?? `https://${this.apiHost}`);
    if (this.baseUrl.protocol !== 'https:' && this.baseUrl.protocol !== 'http:') throw new Error('the Duo base URL must be http(s)');
    this.signatureVersion = options.signatureVersion ?? 2;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.transport = options.transport ?? nodeTransport({ ca: options.ca });
    this.sleep = options.sleep ?? abortableSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? (() => new Date());
    this.logger = options.logger;
    this.onRetry = options.onRetry;
  }

  /** One call; resolves with Duo's `response` (null for a DELETE already done, see above). */
  async request<T>(method: DuoMethod, path: string, options: DuoRequestOptions = {}): Promise<T> {
    return (await this.call<T>(method, path, options)).response;
  }

  /** Reads a paged list to its end: `limit`/`offset`, following `metadata.next_offset`. */
  async getAll<T>(
    path: string,
    params: Readonly<Record<string, DuoParamValue>> = {},
    options: Omit<DuoRequestOptions, 'params'> = {},
  ): Promise<T[]> {
    const items: T[] = [];
    await this.forEachPage<T>(path, async (page) => void items.push(...page), params, options);
    return items;
  }

  /**
   * Reads a paged list page by page, handing each to `onPage` before asking for the next; `beforePage`
   * is awaited before every call (a pace, so a long walk stays within Duo's rate limits).
   */
  async forEachPage<T>(
    path: string,
    onPage: (items: T[]) => Promise<void>,
    params: Readonly<Record<string, DuoParamValue>> = {},
    options: Omit<DuoRequestOptions, 'params'> & { beforePage?: () => Promise<void> } = {},
  ): Promise<void> {
    const { beforePage, ...requestOptions } = options;
    let offset = 0;
    for (let page = 0; ; page += 1) {
      if (page >= MAX_PAGES) throw this.badAnswer('GET', path, 'paging did not end');
      await beforePage?.();
      const body = await this.call<T[]>('GET', path, { ...requestOptions, params: { ...params, limit: this.pageSize, offset } });
      if (!Array.isArray(body.response)) throw this.badAnswer('GET', path, 'a paged answer is not a list');
      await onPage(body.response);
      const next = body.metadata?.next_offset;
      if (next === undefined || next === null || next === '') return;
      const n = typeof next === 'number' ? next : /^\d+$/.test(String(next)) ? Number(next) : NaN;
      if (!Number.isInteger(n) || n <= offset) throw this.badAnswer('GET', path, 'paging did not advance');
      offset = n;
    }
  }

  private badAnswer(method: DuoMethod, path: string, why: string): DuoApiError {
    return new DuoApiError(
      { kind: 'unavailable', httpStatus: 200, duoCode: null, duoMessage: why, messageDetail: null },
      `${method} ${path}`,
    );
  }

  private prepare(method: DuoMethod, path: string, options: DuoRequestOptions) {
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.params ?? {})) if (v !== undefined) params[k] = String(v);
    const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
    const json = hasBody && (options.json === true || this.signatureVersion === 5);
    const duoHeaders = options.duoHeaders ?? {};
    const version: SignatureVersion = json || this.signatureVersion === 5 || Object.keys(duoHeaders).length > 0 ? 5 : 2;
    const body = !hasBody
      ? undefined
      : json
        ? JSON.stringify(Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))))
        : canonParams(params);
    // With a JSON body the parameters travel in it and the signed parameters line is empty.
    const signedParams: DuoParams = json ? {} : params;
    const query = hasBody ? '' : canonParams(params);
    const url = new URL(this.baseUrl.href);
    url.pathname = `${this.baseUrl.pathname.replace(/\/$/, '')}${path}`;
    url.search = query;
    return { version, body, json, signedParams, duoHeaders, url };
  }

  private async call<T>(method: DuoMethod, path: string, options: DuoRequestOptions): Promise<DuoEnvelope<T>> {
    const prepared = this.prepare(method, path, options);
    const label = `${method} ${path}`;
    let waitedMs = 0;
    let retriedAfterNoAnswerOr5xx = false;

    for (let attempt = 1; ; attempt += 1) {
      const date = formatDuoDate(this.now());
      const authorization = signRequest({
        integrationKey: this.ikey,
        secretKey: this.skey,
        version: prepared.version,
        date,
        method,
        host: this.apiHost,
        path,
        params: prepared.signedParams,
        ...(prepared.version === 5 ? { body: prepared.json ? (prepared.body ?? '') : '', duoHeaders: prepared.duoHeaders } : {}),
      });
      const headers: Record<string, string> = {
        authorization,
        date,
        accept: 'application/json',
        'user-agent': USER_AGENT,
        ...prepared.duoHeaders,
        ...(prepared.body !== undefined
          ? { 'content-type': prepared.json ? 'application/json' : 'application/x-www-form-urlencoded' }
          : {}),
      };
      const attemptTimeoutMs = options.longPoll ? Math.max(1, options.longPoll.timeoutMs) : this.timeoutMs;
      const timeout = AbortSignal.timeout(attemptTimeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

      let failure: DuoFailure;
      let retryable: boolean;
      let cause: unknown;
      try {
        const res = await this.transport({ url: prepared.url, method, headers, body: prepared.body, signal });
        if (res.status >= 200 && res.status < 300) return this.parseSuccess<T>(res.body, label);
        if (method === 'DELETE' && res.status === 404 && retriedAfterNoAnswerOr5xx) {
          // The attempt whose answer was lost (or failed late) had already deleted it.
          return { stat: 'OK', response: null as T };
        }
        const kind = failureKindOf(res.status);
        // Duo names the wait in Retry-After or X-Retry-After (its clients read both): the longer one counts.
        const afters = [res.headers['retry-after'], res.headers['x-retry-after']]
          .map((v) => parseRetryAfter(v, this.now().getTime()))
          .filter((v): v is number => v !== null);
        const retryAfter = afters.length ? Math.max(...afters) : null;
        failure = {
          kind,
          httpStatus: res.status,
          ...parseDuoFailBody(res.body),
          ...(retryAfter !== null ? { retryAfterSeconds: retryAfter } : {}),
        };
        retryable = kind === 'rate_limited' || (kind === 'unavailable' && isIdempotent(method));
      } catch (err) {
        // The caller gave up: not Duo's failure, pass the abort on.
        if (options.signal?.aborted) throw err;
        cause = err;
        const timedOut = timeout.aborted;
        failure = {
          kind: 'unavailable',
          httpStatus: null,
          duoCode: null,
          duoMessage: timedOut ? `no answer within ${attemptTimeoutMs} ms` : 'no answer (network error)',
          messageDetail: null,
          ...(timedOut ? { timedOut: true } : {}),
        };
        retryable = isIdempotent(method);
      }
      if (options.longPoll) retryable = false;
      const policy = options.retry ? { ...this.policy, ...options.retry } : this.policy;

      const decision = retryable
        ? nextRetry(
            {
              attempt,
              waitedMs,
              floorMs: failure.retryAfterSeconds !== undefined ? failure.retryAfterSeconds * 1000 : null,
              rateLimited: failure.kind === 'rate_limited',
            },
            policy,
            this.random,
          )
        : null;
      if (!decision?.retry) {
        if (failure.kind === 'rate_limited' && failure.retryAfterSeconds === undefined)
          failure.retryAfterSeconds = Math.ceil(policy.maxDelayMs / 1000);
        const error = new DuoApiError(failure, label, { cause });
        this.logger?.warn(
          {
            duoCall: label,
            attempt,
            status: failure.httpStatus,
            duoCode: failure.duoCode,
            reason: decision ? decision.reason : 'not retryable',
          },
          error.describe(),
        );
        throw error;
      }
      this.logger?.warn(
        { duoCall: label, attempt, status: failure.httpStatus, duoCode: failure.duoCode, waitMs: decision.waitMs },
        `Duo ${label}: ${failure.httpStatus ?? 'no answer'}, retrying`,
      );
      if (failure.kind === 'unavailable') retriedAfterNoAnswerOr5xx = true;
      this.onRetry?.({ call: label, kind: failure.kind, status: failure.httpStatus, waitMs: decision.waitMs });
      await this.sleep(decision.waitMs, options.signal);
      waitedMs += decision.waitMs;
    }
  }

  private parseSuccess<T>(text: string, label: string): DuoEnvelope<T> {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new DuoApiError(
        { kind: 'unavailable', httpStatus: 200, duoCode: null, duoMessage: 'the answer is not JSON', messageDetail: null },
        label,
      );
    }
    if (!body || typeof body !== 'object' || (body as { stat?: unknown }).stat !== 'OK' || !('response' in body)) {
      throw new DuoApiError({ kind: 'unavailable', httpStatus: 200, ...parseDuoFailBody(text) }, label);
    }
    return body as DuoEnvelope<T>;
  }
}
