import fs from 'node:fs';
import path from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@mfa-portal/shared';
import { repoRoot } from './paths.js';

/** An expected failure: answered as `{ code, message, details }` with its status. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: ErrorCode,
    message?: string,
    public readonly details?: ErrorBody['details'],
    public readonly headers: Record<string, string> = {},
  ) {
    super(message ?? errorMessage(code));
    this.name = 'AppError';
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

/** One error handler for every route: stable codes, never a stack trace, 500s logged with the request id. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return send(reply, error.statusCode, { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) }, error.headers);
    }
    if (error.validation) {
      const field = fieldOf(error);
      const issue = (error.validation as ValidationIssue[])[0];
      return send(reply, 400, {
        code: 'request.invalid',
        message: errorMessage('request.invalid'),
        details: { ...(field ? { field } : {}), ...(issue?.message ? { reason: issue.message } : {}) },
      });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 413, { code: 'request.body_too_large', message: errorMessage('request.body_too_large') });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 415, { code: 'request.unsupported_media_type', message: errorMessage('request.unsupported_media_type') });
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return send(reply, 400, { code: 'request.invalid', message: errorMessage('request.invalid'), details: { field: 'body', reason: 'The request body is not valid JSON.' } });
      default:
        break;
    }
    if (error.statusCode === 429) {
      const retryAfter = Number(reply.getHeader('retry-after')) || 60;
      return send(reply, 429, { code: 'request.rate_limited', message: errorMessage('request.rate_limited'), details: { retryAfterSeconds: retryAfter } }, { 'retry-after': String(retryAfter) });
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      // Another client error raised by Fastify itself (e.g. a malformed URL): never a 500.
      return send(reply, error.statusCode, { code: 'request.invalid', message: errorMessage('request.invalid') });
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return send(reply, 500, { code: 'server.internal', message: errorMessage('server.internal'), details: { reason: `Request id ${request.id}` } });
  });
}
