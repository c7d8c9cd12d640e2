import type { FastifyReply } from 'fastify';

/**
 * One server-sent events stream on a hijacked reply. The headers Fastify's hooks already set (request
 * id, security headers) go out with it; `x-accel-buffering: no` keeps a proxy such as nginx from
 * holding events back, and `no-store` keeps them out of every cache.
 */
export interface SseStream {
  /** Sends one event (`data` as JSON); false once the stream is closed. */
  send(event: string, data: unknown): boolean;
  /** A comment line: keeps proxies and the client from taking a quiet stream for a dead one. */
  comment(text: string): void;
  end(): void;
  readonly closed: boolean;
  /** Called once, when the stream ends (by us or by the client going away). */
  onClose(fn: () => void): void;
}

export function openSse(reply: FastifyReply): SseStream {
  const raw = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && !raw.hasHeader(name)) raw.setHeader(name, value);
  }
  reply.hijack();
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  // The first bytes now: a client (and any proxy in between) knows at once the stream is open.
  raw.write(': open\n\n');
  let closed = false;
  const listeners: Array<() => void> = [];
  const finish = () => {
    if (closed) return;
    closed = true;
    for (const fn of listeners.splice(0)) fn();
  };
  raw.on('close', finish);
  raw.on('error', finish);
  return {
    send(event, data) {
      if (closed) return false;
      raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      return true;
    },
    comment(text) {
      if (!closed) raw.write(`: ${text}\n\n`);
    },
    end() {
      if (closed) return;
      raw.end();
      finish();
    },
    get closed() {
      return closed;
    },
    onClose(fn) {
      if (closed) fn();
      else listeners.push(fn);
    },
  };
}
