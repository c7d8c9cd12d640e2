import { errorBodySchema, type ErrorCode } from '@mfa-portal/shared';

/**
 * Failures the browser detects itself (no server answer to read a code from). Their messages are in
 * the `app` namespace (`errors.<code>`); the server's codes have theirs in the `errors` namespace.
 */
export const CLIENT_ERROR_CODES = [
  'client.network',
  'client.unexpected_response',
  'client.sign_in_required',
  'client.webauthn_cancelled',
] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

export type ApiErrorCode = ErrorCode | ClientErrorCode;

export interface ApiErrorDetails {
  field?: string;
  reason?: string;
  retryAfterSeconds?: number;
  [key: string]: unknown;
}

/** A failed API call: the HTTP status (0 when no answer arrived) and the stable error code. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details: ApiErrorDetails = {},
  ) {
    super(message);
  }

  /** True for the browser's own codes (messages in the `app` namespace). */
  get isClientError(): boolean {
    return (CLIENT_ERROR_CODES as readonly string[]).includes(this.code);
  }
}

export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** The ApiError for a non-OK response, from its `{code, message, details}` body when it has one. */
export async function apiErrorFrom(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const parsed = errorBodySchema.safeParse(body);
  if (parsed.success) {
    const retryAfter = Number(response.headers.get('retry-after'));
    const details: ApiErrorDetails = { ...parsed.data.details };
    if (details.retryAfterSeconds === undefined && Number.isFinite(retryAfter) && retryAfter > 0) details.retryAfterSeconds = retryAfter;
    return new ApiError(response.status, parsed.data.code, parsed.data.message, details);
  }
  return new ApiError(
    response.status,
    response.status >= 500 ? 'server.internal' : 'client.unexpected_response',
    `The server answered ${response.status} without a readable error.`,
  );
}
