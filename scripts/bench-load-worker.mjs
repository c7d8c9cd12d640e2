// The worker of scripts/bench-load.ts (plain JavaScript: a worker thread cannot load TypeScript
// through tsx on Node 20). See bench-load.ts for what it does.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

async function run(spec) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  let next = 0;
  const once = () =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const path = spec.paths[next++ % spec.paths.length];
      const req = http.get({ host: '127.0.0.1', port: spec.port, agent, path, headers: spec.headers }, (res) => {
        // The body of a failure is kept (its first bytes say why); a success's is dropped.
        let body = '';
        if ((res.statusCode ?? 0) >= 300) res.on('data', (chunk) => (body += chunk));
        else res.resume();
        res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
  const latencies = [];
  let errors = 0;
  let firstError = null;
  const warmEnd = performance.now() + (spec.warmupMs ?? 1000);
  const end = warmEnd + spec.durationMs;
  let measuredStart = 0;
  await Promise.all(
    Array.from({ length: spec.connections }, async () => {
      while (performance.now() < end) {
        const now = performance.now();
        const { ms, status, body } = await once();
        if (now < warmEnd) continue;
        if (!measuredStart) measuredStart = now;
        if (status >= 200 && status < 300) latencies.push(ms);
        else {
          errors++;
          firstError ??= `HTTP ${status} ${body.slice(0, 200)}`;
        }
      }
    }),
  );
  agent.destroy();
  const seconds = (performance.now() - (measuredStart || warmEnd)) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p) => +(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0).toFixed(2);
  return {
    requests: latencies.length,
    errors,
    firstError,
    rps: +(latencies.length / seconds).toFixed(1),
    p50: q(0.5),
    p95: q(0.95),
    p99: q(0.99),
  };
}

parentPort.postMessage(await run(workerData));
