import https from 'node:https';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { authorizeUrl, pkce } from './oidc-test-client.js';
import { SERVER_START_MS, startServer, type ServerProcess } from './server-process.js';
import { createThrowawayPostgres, throwawayPostgresUnavailable, type ThrowawayPostgres } from './throwaway-postgres.js';
import { freePort } from './support/free-port.js';

/**
 * PostgreSQL restarts under a bounded write load, on a real server process and a throw-away cluster
 * of its own: during the outage writes get 503 `server.unavailable` (never a 500, never a hang),
 * /readyz names the database; afterwards the server recovers by itself, and every write that was
 * acknowledged with a 2xx is in the database.
 */

const unavailable = throwawayPostgresUnavailable();
const APP_PORT = await freePort();
/** Longest a request may take: the configured connect/query timeouts are well below it. */
const CLIENT_TIMEOUT_MS = 20_000;

let cluster: ThrowawayPostgres | undefined;
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop();
  cluster?.destroy();
});

function request(method: string, path: string, opts: { body?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port: APP_PORT,
        method,
        path,
        rejectUnauthorized: false,
        timeout: CLIENT_TIMEOUT_MS,
        headers: {
          ...(opts.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(opts.body) } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${CLIENT_TIMEOUT_MS} ms (a hang)`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe.skipIf(unavailable !== null)(`PostgreSQL restart under load${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('answers 503 during the outage, reports it in /readyz, recovers without a restart, loses no acknowledged write', async () => {
    cluster = createThrowawayPostgres(await freePort());
    cluster.start();
    server = startServer(APP_PORT, {
      DATABASE_URL: cluster.url,
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DATABASE_QUERY_TIMEOUT_MS: '3000',
      READINESS_TIMEOUT_MS: '1000',
      // Each write comes from another (forwarded) address, so the per-address limit of the endpoint does not refuse the load.
      TRUST_PROXY: 'true',
    });
    await server.waitFor(/is running at/, SERVER_START_MS);

    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    const unexpected: string[] = [];
    let seq = 0;
    let stop = false;
    const MAX_REQUESTS = 2000;
    const write = async () => {
      const n = ++seq;
      const key = `ops.restart.k${n}`;
      const res = await request('POST', '/locales/add/en/errors', {
        body: JSON.stringify({ [key]: 'written during a PostgreSQL restart' }),
        headers: { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 202) acknowledged.push(key);
      else if (res.status === 503) {
        const body = JSON.parse(res.body) as { code: string };
        if (body.code !== 'server.unavailable') unexpected.push(res.body);
      } else unexpected.push(`${res.status} ${res.body.slice(0, 300)}`);
    };
    const worker = async () => {
      while (!stop && seq < MAX_REQUESTS) {
        await write();
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 90_000) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        if (await check()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`timed out waiting for ${what}; statuses ${JSON.stringify([...statuses])}`);
    };

    const workers = [worker(), worker(), worker(), worker()];
    const failed = (err: unknown) => {
      throw new Error(`${String(err)}; server stderr: ${server!.output().err.slice(-3000)}; stdout: ${server!.output().out.slice(-3000)}`);
    };
    try {
      await until(() => acknowledged.length >= 20, 'writes before the outage');
      cluster.stop('fast');
      const before503 = statuses.get(503) ?? 0;
      await until(() => (statuses.get(503) ?? 0) >= before503 + 5, 'writes refused during the outage');
      const ready = await request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toMatchObject({ status: 'not_ready', notReady: ['database'] });
      expect((await request('GET', '/healthz')).status).toBe(200);
      // The identity provider too: its token endpoint answers OAuth's temporarily_unavailable.
      const token = await request('POST', '/idp/token', {
        body: 'grant_type=refresh_token&refresh_token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG&client_id=mfa-portal-spa',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `https://localhost:${APP_PORT}` },
      });
      expect(token.status, token.body).toBe(503);
      expect(JSON.parse(token.body)).toMatchObject({ error: 'temporarily_unavailable' });
      // A sign-in started during the outage gets a page saying so (503), not a server error.
      const authorize = authorizeUrl(
        { issuer: `https://localhost:${APP_PORT}/idp`, clientId: 'mfa-portal-spa', redirectUri: `https://localhost:${APP_PORT}/` },
        { scope: 'openid', challenge: pkce().challenge },
      );
      const page = await request('GET', authorize.pathname + authorize.search, { headers: { host: `localhost:${APP_PORT}` } });
      expect(page.status, page.body.slice(0, 300)).toBe(503);

      cluster.start();
      await until(async () => (await request('GET', '/readyz')).status === 200, '/readyz to recover');
      const afterRecovery = acknowledged.length;
      await until(() => acknowledged.length >= afterRecovery + 20, 'writes after the recovery');
    } catch (err) {
      failed(err);
    } finally {
      stop = true;
      await Promise.all(workers).catch(failed);
    }

    expect(unexpected).toEqual([]);
    expect([...statuses.keys()].sort()).toEqual([202, 503]);
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      const stored = await client.query<{ key: string }>("select key from missing_translation where key like 'ops.restart.%'");
      const keys = new Set(stored.rows.map((r) => r.key));
      const lost = acknowledged.filter((k) => !keys.has(k));
      expect(lost).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    } finally {
      await client.end();
    }
    const { out } = server.output();
    expect(out).not.toMatch(/"level":50/);
    expect(out).toMatch(/database unavailable/);
  }, 540_000);
});
