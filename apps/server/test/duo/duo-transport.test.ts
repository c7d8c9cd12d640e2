import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuoClient } from '../../src/mfa/duo/client.js';
import { DuoApiError } from '../../src/mfa/duo/errors.js';

/** The real HTTP transport: a Duo that accepts the connection and never answers is given up on in time. */

let server: net.Server;
let port: number;
const sockets = new Set<net.Socket>();
let connections = 0;

beforeAll(async () => {
  server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('nodeTransport time-outs', () => {
  it('a silent server: each attempt ends at the time-out; a GET is retried, then 503 mfa.provider_unavailable', async () => {
    const client = new DuoClient({
      integrationKey: 'DIWJ8X6AEYOR5OMC6TQ1',
      secretKey: 'Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4Ep',
      apiHost: 'api-silent.duosecurity.com',
      baseUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 150,
      retry: { maxAttempts: 2, maxTotalWaitMs: 10 },
    });
    const err = await client.request('GET', '/admin/v1/users').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DuoApiError);
    expect(err).toMatchObject({ statusCode: 503, code: 'mfa.provider_unavailable', duoMessage: 'no answer within 150 ms' });
    // Two attempts, each on its own connection (keep-alive never reuses a socket with a pending request).
    expect(connections).toBe(2);
  });
});

describe('nodeTransport on a kept-alive connection the other end closed', () => {
  it('a request that meets a stale socket is sent once more on a new connection, a POST too; Duo sees it once', async () => {
    // Answers the first request on a connection and keeps it open; the next request on that same
    // connection is met with a reset, before any of it is read (a server whose idle time-out ran out).
    const seen: string[] = [];
    let fresh = 0;
    const flaky = net.createServer((socket) => {
      fresh += 1;
      let answered = false;
      socket.on('data', (chunk) => {
        if (answered) return void socket.resetAndDestroy();
        answered = true;
        seen.push(chunk.toString('latin1').split(' ', 2).join(' '));
        const body = JSON.stringify({ stat: 'OK', response: { result: 'auth' } });
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`,
        );
      });
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const { nodeTransport } = await import('../../src/mfa/duo/transport.js');
      const send = nodeTransport();
      const url = new URL(`http://127.0.0.1:${(flaky.address() as AddressInfo).port}/auth/v2/preauth`);
      const post = () => send({ url, method: 'POST', headers: {}, body: 'username=bob', signal: AbortSignal.timeout(5000) });
      expect((await post()).status).toBe(200);
      expect((await post()).status).toBe(200);
      expect(seen).toEqual(['POST /auth/v2/preauth', 'POST /auth/v2/preauth']);
      expect(fresh).toBe(2);
    } finally {
      flaky.close();
    }
  });
});
