/**
 * API throughput benchmark: GET /account/getuserinfo (token verification + MFA data from the
 * database) over real HTTP on loopback, with CONCURRENCY keep-alive connections for DURATION_S
 * seconds (bounded: it stops by itself). `npm run bench:api`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { signIn } from '../apps/server/test/oidc-flow.js';
import { BENCH_PASSWORD, benchApp, stats } from './bench-lib.js';

const concurrency = Number(process.env.CONCURRENCY ?? 16);
const durationMs = Math.min(60, Number(process.env.DURATION_S ?? 10)) * 1000;

const b = await benchApp();
const token = (await signIn(b.app, b.config, 'bob@example.com', BENCH_PASSWORD)).access_token;
await b.app.listen({ host: '127.0.0.1', port: 0 });
const { port } = b.app.server.address() as AddressInfo;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        agent,
        path: '/account/getuserinfo?userid=bob@example.com',
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`status ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
  });
}

const latencies: number[] = [];
const end = performance.now() + durationMs;
const start = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) latencies.push(await once());
  }),
);
const seconds = (performance.now() - start) / 1000;
agent.destroy();
await b.close();
const s = stats(latencies);
console.log(
  `GET /account/getuserinfo: ${(latencies.length / seconds).toFixed(0)} requests/s with ${concurrency} connections; latency ms p50 ${s.p50}, p95 ${s.p95}`,
);
console.log(
  JSON.stringify({ benchmark: 'api-getuserinfo', requestsPerSecond: +(latencies.length / seconds).toFixed(1), concurrency, ...s }),
);
