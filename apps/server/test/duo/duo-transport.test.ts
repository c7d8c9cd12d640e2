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
