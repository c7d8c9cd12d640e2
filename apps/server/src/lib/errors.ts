import fs from 'node:fs';
import path from 'node:path';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@mfa-portal/shared';
import { ERROR_STATUS } from './error-status.js';
import { repoRoot } from './paths.js';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from './db-unavailable.js';

export interface AppErrorInit {
  code: ErrorCode;
  details?: ErrorBody['details'];
  /** Defaults to the English message of the code (locales/en/errors.json). */
  message?: string;
  headers?: Record<string, string>;
}

/**
 * An expected failure: answered as `{ code, message, details }` with the status of its code in
 * {@link ERROR_STATUS} (the one table from code to status).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: ErrorBody['details'] | undefined;
  readonly headers: Record<string, string>;

  constructor(init: AppErrorInit) {
    super(init.message ?? errorMessage(init.code));
    this.name = 'AppError';
    this.code = init.code;
    this.statusCode = ERROR_STATUS[init.code];
    this.details = init.details;
    this.headers = init.headers ?? {};
  }
}

let messages: Record<string, string> | undefined;

/** English message for a code, from the `errors` translation namespace (one source for server and web). */
export function errorMessage(code: ErrorCode): string {
  messages ??= JSON.parse(fs.readFileSync(path.join(repoRoot, 'locales/en/errors.json'), 'utf8')) as Record<string, string>;
  return messages[code] ?? 'Something went wrong.';
}

export function missingErrorMessages(): ErrorCode[] {
  errorMessage('server.internal');
  return ERROR_CODES.filter((c) => !messages?.[c]);
}

interface ValidationIssue {
  instancePath?: string;
  params?: { issue?: { path?: PropertyKey[] }; missingProperty?: string };
  message?: string;
}

function fieldOf(err: FastifyError): string | undefined {
  const first = (err.validation as ValidationIssue[] | undefined)?.[0];
  if (!first) return undefined;
  const zodPath = first.params?.issue?.path;
  const fromPath = zodPath?.length ? zodPath.map(String).join('.') : first.instancePath?.replace(/^\//, '').replaceAll('/', '.');
  // A problem with the whole body, query or headers names that part.
  return fromPath || first.params?.missingProperty || err.validationContext;
}

function send(reply: FastifyReply, status: number, body: ErrorBody, headers: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** The answer to an error code, with the status of the table. */
function sendCode(reply: FastifyReply, code: ErrorCode, details?: ErrorBody['details'], headers: Record<string, string> = {}) {
  return send(reply, ERROR_STATUS[code], { code, message: errorMessage(code), ...(details ? { details } : {}) }, headers);
}

/** The answer to an AppError: its status, code, message, details and headers. */
function sendAppError(reply: FastifyReply, error: AppError) {
  const body = { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  return send(reply, error.statusCode, body, error.headers);
}

/**
 * Turns a failure a layer above this one knows (a provider refusal, say) into the AppError that answers
 * it; null when it knows none. This layer cannot import those error types, so the composition root
 * hands one in.
 */
export type ErrorTranslator = (error: unknown) => AppError | null;

export interface ErrorHandlingOptions {
  /** Knows the typed errors of the layers above; without one only an AppError is answered by its code. */
  translate?: ErrorTranslator;
}

/**
 * One error handler for every route: stable codes, never a stack trace, 500s logged with the request id.
 * Services let their typed errors through; they are translated here, once.
 */
export function installErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions = {}): void {
  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) return sendAppError(reply, error);
    const translated = options.translate?.(error);
    if (translated) return sendAppError(reply, translated);
    if (error.validation) {
      const field = fieldOf(error);
      const issue = (error.validation as ValidationIssue[])[0];
      return sendCode(reply, 'request.invalid', { ...(field ? { field } : {}), ...(issue?.message ? { reason: issue.message } : {}) });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendCode(reply, 'request.body_too_large');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendCode(reply, 'request.unsupported_media_type');
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendCode(reply, 'request.invalid', { field: 'body', reason: 'The request body is not valid JSON.' });
      default:
        break;
    }
    if (error.statusCode === 429) {
      const retryAfter = Number(reply.getHeader('retry-after')) || 60;
      return sendCode(reply, 'request.rate_limited', { retryAfterSeconds: retryAfter }, { 'retry-after': String(retryAfter) });
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      // Another client error raised by Fastify itself (e.g. a malformed URL): never a 500.
      return send(reply, error.statusCode, { code: 'request.invalid', message: errorMessage('request.invalid') });
    }
    if (isDatabaseUnavailable(error)) {
      // An outage, not a bug: a short warning (no stack), and a 503 the client may retry.
      request.log.warn({ cause: error.message }, 'database unavailable');
      const retryAfter = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
      return send(
        reply,
        503,
        { code: 'server.unavailable', message: errorMessage('server.unavailable') },
        { 'retry-after': retryAfter, 'cache-control': 'no-store' },
      );
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return sendCode(reply, 'server.internal', { reason: `Request id ${request.id}` });
  });
}

/**
 * Errors Fastify raises before routing (a malformed percent-encoding in the path, a path parameter
 * longer than the router allows): the error shape, never Fastify's own body. The `frameworkErrors` option.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const reason = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A part of the address is too long.' : 'The address is not valid.';
  if (/\/scim\/v2(\/|$|\?)/.test(request.raw.url ?? '')) {
    // The SCIM endpoints answer SCIM errors (RFC 7644, section 3.12), even before routing.
    const body = { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '400', scimType: 'invalidValue', detail: reason };
    return reply
      .code(400)
      .header('content-type', 'application/scim+json; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(JSON.stringify(body));
  }
  return sendCode(reply, 'request.invalid', { field: 'path', reason });
}

const CLIENT_ERROR_CODES: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'request.headers_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request.timeout',
};

/** The raw HTTP answer to a request Node's parser refused (written on the socket, then closed). */
export function clientErrorResponse(errCode: string | undefined): string {
  const code = (errCode && CLIENT_ERROR_CODES[errCode]) || 'request.invalid';
  const status = ERROR_STATUS[code];
  const body = JSON.stringify({ code, message: errorMessage(code) });
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[status] ?? 'Bad Request';
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Node's HTTP server answers some requests before Fastify sees them: oversized headers (431), a
 * request that took too long (408), a malformed request (400). This writes the error shape instead
 * of Fastify's default body, with `connection: close`. The `clientErrorHandler` option.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.end(clientErrorResponse(err.code));
  else socket.destroy(err);
}
