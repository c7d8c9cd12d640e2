/**
 * Whether an error means "the database cannot be reached right now" (restart, fail-over, network,
 * a full pool, a bounded wait that ran out) rather than a bug: such requests are answered 503
 * `server.unavailable`, and the pool reconnects by itself once PostgreSQL is back.
 */

// SQLSTATE classes and codes: 08 connection exception, 57P01-57P03 shutdown / cannot connect now,
// 53300 too many connections, 57014 statement cancelled (statement_timeout), 40001/40P01 never here.
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|53300|57014)$/;
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable|connection error|Client was closed|terminating connection/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== 'object') return false;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}

/** Seconds a client is asked to wait before retrying during an outage. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
