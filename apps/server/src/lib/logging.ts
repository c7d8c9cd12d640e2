import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Structured JSON logs (pino, through Fastify): one line per completed request with the request id,
 * route pattern, status and duration; secrets (tokens, cookies, codes, seeds, passwords) redacted.
 */

/** Field names whose values are never logged, wherever they appear (two levels deep). */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'passcode',
  'codes',
  'secret',
  'seed',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'otpauthUrl',
  'x-client-claims',
];

const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-client-claims"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((f) => (/^[A-Za-z_]+$/.test(f) ? [f, `*.${f}`, `*.*.${f}`] : [`*["${f}"]`, `*.*["${f}"]`])),
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The path without its query string (codes, states and e-mail addresses), and with long opaque
 * segments (the identity provider's interaction ids, which its cookies also carry) shown as `:opaque`.
 */
export function loggedPath(url: string): string {
  return (url.split('?')[0] ?? '')
    .split('/')
    .map((seg) => (seg.length >= 20 && /^[A-Za-z0-9_-]+$/.test(seg) && !UUID.test(seg) ? ':opaque' : seg))
    .join('/');
}

const requestSerializer = (req: { method: string; url: string; id: string; ip?: string }) => ({
  method: req.method,
  url: loggedPath(req.url),
  reqId: req.id,
  remoteAddress: req.ip,
});

/**
 * JSON lines for machines (a log collector, a file, a pipe); readable lines for a person at a terminal
 * (`auto`: when standard output is one). Redaction and serializers run before either format, so both
 * hide the same secrets.
 */
export type LogFormat = 'auto' | 'json' | 'pretty';

export function loggerOptions(
  config: { logLevel: string; logFormat?: LogFormat },
  terminal: boolean = process.stdout.isTTY === true,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  const format = config.logFormat ?? 'auto';
  const pretty = format === 'pretty' || (format === 'auto' && terminal);
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { req: requestSerializer },
    ...(pretty ? { transport: { target: 'pino-pretty', options: PRETTY_OPTIONS } } : {}),
  };
}

/** How pino-pretty prints a line: the time of day, the level, the message and its fields. */
export const PRETTY_OPTIONS = { colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } as const;

// A request id from a client or proxy is kept only if it is short and plain (it ends up in logs).
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Fastify's genReqId: the id from the configured header when well-formed, a fresh UUID otherwise. */
export function requestIdGenerator(header: string): (req: IncomingMessage) => string {
  return (req) => {
    const given = req.headers[header];
    const value = Array.isArray(given) ? given[0] : given;
    return value && REQUEST_ID.test(value) ? value : randomUUID();
  };
}

/** Route pattern of a request (`/api/me/devices/:id`), never the raw URL; `unmatched` for a 404 without route. */
export function routeOf(request: { routeOptions?: { url?: string } }): string {
  return request.routeOptions?.url || 'unmatched';
}

/**
 * Calls `done` once when the response of each request has been sent (or the client went away),
 * including responses the app handed over to another handler (the identity provider hijacks its
 * replies, and Fastify's onResponse hooks do not run for those).
 */
export function onRequestDone(app: FastifyInstance, done: (request: FastifyRequest, reply: FastifyReply, aborted: boolean) => void): void {
  app.addHook('onRequest', async (request, reply) => {
    let called = false;
    const finish = (aborted: boolean) => {
      if (called) return;
      called = true;
      done(request, reply, aborted);
    };
    reply.raw.once('finish', () => finish(false));
    reply.raw.once('close', () => finish(!reply.raw.writableFinished));
  });
}

/** Returns the request id in the configured header and logs each completed request once. */
export function installRequestLogging(app: FastifyInstance, opts: { requestIdHeader: string }): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(opts.requestIdHeader, request.id);
  });
  onRequestDone(app, (request, reply, aborted) => {
    const statusCode = reply.raw.statusCode;
    // 503 is an expected answer during an outage (its cause is logged once, as a warning).
    const level = statusCode === 503 ? 'warn' : statusCode >= 500 ? 'error' : 'info';
    // A route may raise its level (the probes log at warn and above only: no line per probe).
    request.log[level](
      {
        req: request,
        route: routeOf(request),
        statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        ...(aborted ? { aborted } : {}),
      },
      aborted ? 'request aborted' : 'request completed',
    );
  });
}
