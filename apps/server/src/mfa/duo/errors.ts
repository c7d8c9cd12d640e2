import type { ErrorCode } from '@mfa-portal/shared';
import { AppError } from '../../lib/errors.js';

/**
 * A failed Duo call, as the portal answers it. It is an AppError, so a route that lets it through
 * answers `{ code, message, details }` with the status below; the adapter catches the ones it expects
 * (a 404 for a token serial, a 400 for wrong resync codes, ...) and turns them into port errors.
 *
 * | Duo answer                                      | portal code                 | HTTP |
 * |-------------------------------------------------|-----------------------------|------|
 * | 400 (bad parameters), 404, 405, other 4xx       | mfa.provider_rejected       | 502  |
 * | 401 (credentials, signature, Date), 403 (permission) | mfa.provider_rejected  | 502  |
 * | 429 still answered after the retry budget       | mfa.provider_rate_limited   | 503 + Retry-After |
 * | 5xx (after retries when idempotent)             | mfa.provider_unavailable    | 503  |
 * | network error, time-out, unreadable answer      | mfa.provider_unavailable    | 503  |
 *
 * `details` carries Duo's numeric code and HTTP status (never Duo's message, which may echo input).
 */

export type DuoFailureKind = 'rejected' | 'rate_limited' | 'unavailable';

export interface DuoFailure {
  kind: DuoFailureKind;
  /** HTTP status Duo answered (null: no answer). */
  httpStatus: number | null;
  /** Duo's `code` (e.g. 40002, 40103, 42901), when it sent one. */
  duoCode: number | null;
  /** Duo's `message` and `message_detail`: for logs and the adapter's decisions, not for end users. */
  duoMessage: string | null;
  messageDetail: string | null;
  /** Seconds to wait before trying again (rate limited). */
  retryAfterSeconds?: number;
  /** No answer within the attempt's time-out (as opposed to a refused or broken connection). */
  timedOut?: boolean;
}

/** The portal code of each failure (its status, 502 or 503, is in `ERROR_STATUS`). */
const PORTAL: Record<DuoFailureKind, ErrorCode> = {
  rejected: 'mfa.provider_rejected',
  rate_limited: 'mfa.provider_rate_limited',
  unavailable: 'mfa.provider_unavailable',
};

export class DuoApiError extends AppError {
  readonly kind: DuoFailureKind;
  readonly httpStatus: number | null;
  readonly duoCode: number | null;
  readonly duoMessage: string | null;
  readonly messageDetail: string | null;
  readonly timedOut: boolean;

  constructor(
    failure: DuoFailure,
    /** `METHOD /path` of the call (never its parameters). */
    readonly call: string,
    options: { cause?: unknown } = {},
  ) {
    const retryAfter = failure.kind === 'rate_limited' ? Math.max(1, Math.ceil(failure.retryAfterSeconds ?? 1)) : null;
    super({
      code: PORTAL[failure.kind],
      details: {
        provider: 'duo',
        ...(failure.httpStatus !== null ? { providerStatus: failure.httpStatus } : {}),
        ...(failure.duoCode !== null ? { providerCode: failure.duoCode } : {}),
        ...(retryAfter !== null ? { retryAfterSeconds: retryAfter } : {}),
      },
      headers: retryAfter !== null ? { 'retry-after': String(retryAfter) } : {},
    });
    this.name = 'DuoApiError';
    this.kind = failure.kind;
    this.httpStatus = failure.httpStatus;
    this.duoCode = failure.duoCode;
    this.duoMessage = failure.duoMessage;
    this.messageDetail = failure.messageDetail;
    this.timedOut = failure.timedOut === true;
    if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }

  /** For logs: the call, the status and Duo's code and message (no parameters, no secrets). */
  describe(): string {
    return `Duo ${this.call} failed: ${this.httpStatus ?? 'no answer'}${this.duoCode ? ` ${this.duoCode}` : ''}${this.duoMessage ? ` ${this.duoMessage}` : ''}${this.messageDetail ? ` (${this.messageDetail})` : ''}`;
  }
}

/** The failure kind of a final HTTP answer that is not a success. */
export function failureKindOf(httpStatus: number): DuoFailureKind {
  if (httpStatus === 429) return 'rate_limited';
  if (httpStatus >= 500) return 'unavailable';
  return 'rejected';
}

/** Duo's error body `{ stat: 'FAIL', code, message, message_detail }`, read defensively. */
export function parseDuoFailBody(text: string): Pick<DuoFailure, 'duoCode' | 'duoMessage' | 'messageDetail'> {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (body && typeof body === 'object' && body.stat === 'FAIL') {
      return {
        duoCode:
          typeof body.code === 'number' ? body.code : typeof body.code === 'string' && /^\d+$/.test(body.code) ? Number(body.code) : null,
        duoMessage: typeof body.message === 'string' ? body.message.slice(0, 200) : null,
        messageDetail: typeof body.message_detail === 'string' ? body.message_detail.slice(0, 200) : null,
      };
    }
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): nothing more to say than the status.
  }
  return { duoCode: null, duoMessage: null, messageDetail: null };
}
