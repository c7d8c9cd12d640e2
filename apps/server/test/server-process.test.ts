import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../src/lib/paths.js';
import { SERVER_START_MS } from './server-process.js';

/** The real `server.ts` process: boot-time configuration checks, JSON logs, graceful shutdown. */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function start(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-proc-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/server.ts')], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (re: RegExp, ms = SERVER_START_MS) => {
    const end = Date.now() + ms;
    while (!re.test(out) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    if (!re.test(out)) throw new Error(`timed out waiting for ${re}; stdout: ${out}; stderr: ${err}`);
  };
  return { child, exited, waitFor, output: () => ({ out, err }), dataDir };
}

describe('the server process', () => {
  it('refuses to start with bad configuration, naming each bad variable', async () => {
    const p = start({ PORT: 'eighty', MFA_PROVIDER: 'okta' });
    expect(await p.exited).toBe(1);
    const { err } = p.output();
    expect(err).toContain('Invalid configuration:');
    expect(err).toMatch(/PORT: must be a number/);
    expect(err).toMatch(/MFA_PROVIDER: must be builtin or duo/);
  });

  it('refuses the embedded identity provider in production unless allowed', async () => {
    const p = start({ NODE_ENV: 'production' });
    expect(await p.exited).toBe(1);
    expect(p.output().err).toMatch(/IDP_MODE: the embedded identity provider .* refused when NODE_ENV=production/);
  });

  it('serves HTTPS with a generated certificate, logs JSON with request ids, and shuts down gracefully', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const p = start({ PORT: String(port), DEMO_PASSWORD: 'process-test-pw' });
    try {
      await p.waitFor(/is running at https:\/\/localhost:\d+\//);
      expect(p.output().out).toContain('password: process-test-pw');
      expect(fs.existsSync(path.join(p.dataDir, 'tls/localhost-cert.pem'))).toBe(true);
      // A request over TLS (the certificate is self-signed: trust it for this request only).
      const ca = fs.readFileSync(path.join(p.dataDir, 'tls/localhost-cert.pem'));
      const https = await import('node:https');
      const status = await new Promise<{ code: number; id: string }>((resolve, reject) => {
        https
          .get({ host: 'localhost', port, path: '/settings/APIInfo?secret=do-not-log', ca }, (res) => {
            res.resume();
            resolve({ code: res.statusCode ?? 0, id: String(res.headers['x-request-id']) });
          })
          .on('error', reject);
      });
      expect(status.code).toBe(200);
      await p.waitFor(new RegExp(status.id));
      const line = p
        .output()
        .out.split('\n')
        .find((l) => l.includes(status.id) && l.includes('"url"'))!;
      const entry = JSON.parse(line);
      expect(entry.reqId).toBe(status.id);
      expect(entry.req.url).toBe('/settings/APIInfo');
      expect(line).not.toContain('do-not-log');
    } finally {
      p.child.kill('SIGTERM');
    }
    expect(await p.exited).toBe(0);
    expect(p.output().out).toMatch(/"msg":"shutting down"/);
  }, 300_000); // a cold start (certificate, keys, migrations, demo seed) on a busy shared machine is slow

  it('drains on SIGTERM: not ready at once, still answering with Connection: close, then closed; no connection reset', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const p = start({ PORT: String(port), SHUTDOWN_DELAY_SECONDS: '4', LOG_LEVEL: 'warn' });
    await p.waitFor(/is running at https:\/\/localhost:\d+\//);
    const ca = fs.readFileSync(path.join(p.dataDir, 'tls/localhost-cert.pem'));
    const https = await import('node:https');
    // A new connection for every request (agent: false), as a client behind a load balancer would look.
    const get = (urlPath: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        https
          .get({ host: 'localhost', port, path: urlPath, ca, agent: false }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          })
          .on('error', reject);
      });
    const outcomes = { answered: 0, failed: [] as string[], closeAfterSigterm: 0, afterSigterm: 0 };
    let sigtermAt = 0;
    const until = Date.now() + 2_500;
    const client = async () => {
      while (Date.now() < until) {
        const sentAt = Date.now();
        try {
          const r = await get('/settings/APIInfo');
          if (r.status === 200) outcomes.answered++;
          else outcomes.failed.push(`status ${r.status}`);
          if (sigtermAt && sentAt > sigtermAt) {
            outcomes.afterSigterm++;
            if (r.connection === 'close') outcomes.closeAfterSigterm++;
          }
        } catch (err) {
          outcomes.failed.push((err as NodeJS.ErrnoException).code ?? String(err));
        }
      }
    };
    const load = Promise.all(Array.from({ length: 20 }, client));
    await new Promise((r) => setTimeout(r, 700));
    sigtermAt = Date.now();
    p.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect((await get('/readyz')).status).toBe(503);
    await load;
    expect(outcomes.failed).toEqual([]);
    expect(outcomes.answered).toBeGreaterThan(0);
    expect(outcomes.afterSigterm).toBeGreaterThan(0);
    expect(outcomes.closeAfterSigterm).toBe(outcomes.afterSigterm);
    expect(await p.exited).toBe(0);
  }, 300_000);
});
