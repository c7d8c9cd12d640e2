import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { SERVER_START_MS, startServer } from './server-process.js';
import { freePort } from './support/free-port.js';

/**
 * SIGTERM with requests in flight, on a real server process: readiness goes down, new connections
 * are refused, the requests in flight are answered, the database is closed and the process exits 0.
 */

const TOKEN = 'shutdown-test-metrics-token-0123';
const BODY = JSON.stringify({ 'ops.shutdown.test': 'in flight during SIGTERM' });

/** A POST whose body is sent in two halves: it stays in flight until `finish()`. */
function halfSentRequest(port: number) {
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/locales/add/en/errors',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  req.write(BODY.slice(0, 10));
  return { answered, finish: () => req.end(BODY.slice(10)) };
}

async function get(port: number, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  return { status: res.status, body: await res.text() };
}

async function inFlight(port: number): Promise<number> {
  const { body } = await get(port, '/metrics', { authorization: `Bearer ${TOKEN}` });
  return Number(/^portal_http_requests_in_flight (\d+)/m.exec(body)?.[1] ?? 0);
}

async function until(check: () => Promise<boolean>, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', () => resolve(true));
  });

describe('graceful shutdown (SIGTERM)', () => {
  it('answers the requests in flight, refuses new connections, closes the database and exits 0', async () => {
    const port = await freePort();
    const p = startServer(port, { TLS: 'off', METRICS_TOKEN: TOKEN, SHUTDOWN_GRACE_SECONDS: '30' });
    try {
      await p.waitFor(/is running at/, SERVER_START_MS);
      const requests = [halfSentRequest(port), halfSentRequest(port), halfSentRequest(port)];
      // The three are in the server's hands (plus the scrape that counts them).
      await until(async () => (await inFlight(port)) >= 4, 'three requests in flight');

      p.child.kill('SIGTERM');
      await p.waitFor(/"msg":"shutting down"/);
      await until(() => refused(port), 'new connections to be refused');

      requests.forEach((r) => r.finish());
      const answers = await Promise.all(requests.map((r) => r.answered));
      for (const a of answers) expect(a, a.body).toMatchObject({ status: 202 });
      expect(await p.exited).toBe(0);
      expect(p.output().out).toMatch(/"msg":"shut down"/);
      expect(p.output().out).not.toMatch(/"level":50/);
    } finally {
      await p.stop();
    }
  }, 360_000);

  it('gives up on a request still running after SHUTDOWN_GRACE_SECONDS and exits', async () => {
    const port = await freePort();
    const p = startServer(port, { TLS: 'off', METRICS_TOKEN: TOKEN, SHUTDOWN_GRACE_SECONDS: '1' });
    try {
      await p.waitFor(/is running at/, SERVER_START_MS);
      const stuck = halfSentRequest(port);
      stuck.answered.catch(() => {});
      await until(async () => (await inFlight(port)) >= 2, 'a request in flight');
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(1);
      expect(p.output().out).toMatch(/requests still running after the grace period/);
    } finally {
      await p.stop();
    }
  }, 360_000);
});
