/**
 * Push with number matching, measured end to end on loopback (part of `npm run bench`, `--only push`):
 *
 * - latency: a software phone (scripts/lib/software-phone.ts) hears each push over its event stream and
 *   approves it with the number; the "waiting browser" follows `GET /api/me/push/:txid/events`. The
 *   figure is the time from the signed approval being sent to the browser being told (p50, p95), beside
 *   a bare SSE echo on loopback from the same run (a POST on one connection, its event on another).
 * - throughput: whole pushes (start, phone hears and approves, browser told) per second, ten at a time,
 *   one phone each, beside the bare echo at the same concurrency.
 *
 * The portal is the real app (buildApp) on the bench's database, with the verification budgets raised
 * (they exist to slow people down, not to be measured here), signed in with the bench's minted tokens.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AuthenticatorActivation, StartedPush } from '@mfa-portal/shared';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import type { DatabaseHandle } from '../apps/server/src/db/database.js';
import type { Figure } from './bench-browser.js';
import { stats } from './bench-lib.js';
import { SoftwarePhone } from './lib/software-phone.js';

export interface PushBenchOptions {
  database: DatabaseHandle;
  dataDir: string;
  password: string;
  /** A bearer token for `upn`, as the bench mints them (same database, same identity provider keys). */
  token: (upn: string, roles: string[]) => Promise<string>;
  /** Pushes for the latency figure (at most 500). */
  count?: number;
  /** Bound of the throughput run: whichever comes first, this many pushes or `durationMs`. */
  throughputCount?: number;
  durationMs?: number;
  concurrency?: number;
  /** A demo user with no device yet (the first one needs no step-up). */
  upn?: string;
}

/** Reads a server-sent events body until `want` says stop; resolves with the moment it did. */
async function untilEvent(body: ReadableStream<Uint8Array>, want: (event: string, data: string) => boolean): Promise<number> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error('the event stream ended first');
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: ?(.*)$/m.exec(block)?.[1];
        const data = /^data: ?(.*)$/m.exec(block)?.[1];
        if (event && data !== undefined && want(event, data)) return performance.now();
      }
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
}

/** The reference: a bare SSE stream and a POST that sends one event on it, on a tiny node http server. */
async function sseEcho(): Promise<{ roundTrip: () => Promise<number>; close: () => Promise<void> }> {
  const streams = new Map<string, http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const id = url.searchParams.get('id') ?? '';
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': open\n\n');
      streams.set(id, res);
      req.on('close', () => streams.delete(id));
      return;
    }
    req.resume();
    req.on('end', () => {
      streams.get(id)?.end(`event: state\ndata: {"state":"approved"}\n\n`);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let n = 0;
  return {
    async roundTrip() {
      const id = String(n++);
      const res = await fetch(`${base}/events?id=${id}`);
      const told = untilEvent(res.body!, (e) => e === 'state');
      while (!streams.has(id)) await new Promise((r) => setImmediate(r));
      const t0 = performance.now();
      await fetch(`${base}/echo?id=${id}`, { method: 'POST', body: '{}' });
      return (await told) - t0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs `task` with `concurrency` workers until `count` tasks are done or `durationMs` has passed. */
async function throughput(task: (worker: number) => Promise<unknown>, concurrency: number, count: number, durationMs: number) {
  let started = 0;
  let done = 0;
  let errors = 0;
  let firstError: string | null = null;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (started < count && performance.now() - t0 < durationMs) {
        started++;
        try {
          await task(worker);
          done++;
        } catch (err) {
          errors++;
          firstError ??= err instanceof Error ? err.message : String(err);
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { perSecond: +(done / seconds).toFixed(1), done, errors, firstError, seconds: +seconds.toFixed(2) };
}

export async function pushBench(opts: PushBenchOptions): Promise<Figure[]> {
  const count = Math.min(500, opts.count ?? 100);
  // One user's waiting browsers are bounded (8 streams; the oldest goes first), and every push here is
  // the same user's: at most that many at a time, or the bench would cut its own streams.
  const concurrency = Math.min(8, opts.concurrency ?? 8);
  const throughputCount = Math.min(2000, opts.throughputCount ?? 300);
  const durationMs = Math.min(60_000, opts.durationMs ?? 10_000);
  const upn = opts.upn ?? 'carol@example.com';
  const config = loadConfig({
    DATA_DIR: opts.dataDir,
    LOG_LEVEL: 'silent',
    DEMO_PASSWORD: opts.password,
    TLS: 'off',
    NODE_ENV: 'test',
    MFA_VERIFY_LIMIT_PER_USER: '1000',
    MFA_VERIFY_LIMIT_PER_ADDRESS: '10000',
    PUSH_LIMIT_PER_USER: '1000',
  });
  const app = await buildApp({ config, database: opts.database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const echo = await sseEcho();
  const headers = { authorization: `Bearer ${await opts.token(upn, [])}`, 'content-type': 'application/json' };
  const api = async <T>(method: string, path: string, body?: unknown, status = 200): Promise<T> => {
    // A body-less call sends no content type: Fastify refuses an empty JSON body.
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? { authorization: headers.authorization } : headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  };

  try {
    // One phone per worker, all for the same user: the first needs no step-up, the others are added
    // after a step-up with the first phone's passcode (as a person adding a second phone would).
    const phones: SoftwarePhone[] = [];
    for (let i = 0; i < concurrency; i++) {
      if (i === 1) await api('POST', '/api/me/step-up', { method: 'passcode', code: phones[0]!.passcode() });
      const activation = await api<AuthenticatorActivation>('POST', '/api/me/devices/authenticator-app', {}, 201);
      // The link names the configured public address; the bench's portal listens elsewhere on loopback.
      const link = activation.activationUrl.replace(new URL(activation.activationUrl).origin, base);
      const phone = await SoftwarePhone.create();
      await phone.activate(link, { deviceName: `Bench phone ${i + 1}` });
      phones.push(phone);
    }

    /** One whole push on phone `i`: the started push, the phone hears it, approves; the browser is told. */
    const cycle = async (i: number): Promise<number> => {
      const phone = phones[i]!;
      const heard = phone.nextRequest({ timeoutMs: 15_000 });
      const started = await api<StartedPush>('POST', `/api/me/devices/${phone.deviceId}/push`, undefined, 202);
      const waiting = await fetch(`${base}/api/me/push/${started.txid}/events`, { headers });
      if (waiting.status !== 200) throw new Error(`browser stream: ${waiting.status} ${await waiting.text()}`);
      const told = untilEvent(waiting.body!, (e, data) => e === 'state' && JSON.parse(data).state === 'approved');
      const request = await heard;
      const t0 = performance.now();
      await phone.approve(request.id, started.verificationCode!);
      return (await told) - t0;
    };

    // Warm both paths (first connections, JIT) before measuring.
    for (let i = 0; i < 5; i++) {
      await cycle(0);
      await echo.roundTrip();
    }
    const latencies: number[] = [];
    const references: number[] = [];
    for (let i = 0; i < count; i++) {
      latencies.push(await cycle(0));
      references.push(await echo.roundTrip());
    }
    const push = stats(latencies);
    const ref = stats(references);
    const pushes = await throughput((w) => cycle(w), concurrency, throughputCount, durationMs);
    const echoes = await throughput(() => echo.roundTrip(), concurrency, throughputCount, durationMs);
    return [
      {
        name: `push approved → browser told, p50 (${count})`,
        figure: push.p50,
        unit: 'ms',
        reference: ref.p50,
        referenceName: 'bare SSE echo',
        extra: { ...push, reference: ref },
      },
      {
        name: `push approved → browser told, p95 (goal < 1000)`,
        figure: push.p95,
        unit: 'ms',
        reference: ref.p95,
        referenceName: 'bare SSE echo',
        extra: { goalMs: 1000, met: push.p95 < 1000 },
      },
      {
        name: `whole pushes per second, ${concurrency} at a time`,
        figure: pushes.perSecond,
        unit: 'push/s',
        reference: echoes.perSecond,
        referenceName: 'bare SSE echo',
        extra: { ...pushes, reference: echoes },
      },
    ];
  } finally {
    await echo.close();
    await app.close();
  }
}
