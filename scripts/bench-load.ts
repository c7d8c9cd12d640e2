/**
 * A bounded HTTP load loop on loopback, run in a worker thread so the server under test keeps its own
 * event loop: `connections` keep-alive connections, each sending the next request as soon as the last
 * one answered, for `durationMs` after `warmupMs`. Paths are taken in turn. Non-2xx answers count as
 * errors (and are reported, never hidden).
 */
import { Worker } from 'node:worker_threads';

export interface LoadSpec {
  port: number;
  paths: string[];
  headers?: Record<string, string>;
  connections: number;
  durationMs: number;
  warmupMs?: number;
}
export interface LoadResult {
  requests: number;
  errors: number;
  firstError: string | null;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Runs the load in a worker thread and resolves with its figures. */
export function load(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./bench-load-worker.mjs', import.meta.url), { workerData: spec });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => (code !== 0 ? reject(new Error(`load worker exited with ${code}`)) : undefined));
  });
}
