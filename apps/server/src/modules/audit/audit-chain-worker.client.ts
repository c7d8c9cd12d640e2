import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ChainVerification } from './audit-chain.js';
import type { ChainWorkerData, ChainWorkerReply, ChainWorkerRequest } from './audit-chain-worker.protocol.js';
import { CHAIN_STORE_METHODS, chainStoreOf } from './chain-verification.js';

export interface ChainWorkerRun {
  result: Promise<ChainVerification>;
  /** Stops the worker (shutdown); `result` then rejects. */
  terminate(): Promise<void>;
}

/**
 * The worker thread: its module next to this one, compiled (`.js`), or from source (`.ts`, the way
 * the server runs: `node --import tsx`, and vitest). A worker thread does not get the loader that
 * `--import tsx` registered in the main thread (Node 20), so a `.ts` worker is loaded through tsx's
 * `tsImport` from a one-line bootstrap.
 */
function startWorker(workerData: ChainWorkerData): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(`./audit-chain.worker.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSource) return new Worker(url, { workerData });
  const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsx = pathToFileURL(path.join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => m.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/**
 * Runs one hash-chain walk in a worker thread. With `data.source.kind === 'relay'`, the worker's
 * reads and checkpoint writes are answered here on `db` (only the walk's own store methods).
 */
export function runChainWorker(
  db: Kysely<Database>,
  data: ChainWorkerData,
  onProgress: (checked: number, total: number) => void,
): ChainWorkerRun {
  const worker = startWorker(data);
  const store = chainStoreOf(db);
  let settled = false;
  const result = new Promise<ChainVerification>((resolve, reject) => {
    const end = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    worker.on('message', (message: ChainWorkerReply) => {
      switch (message.type) {
        case 'call': {
          const reply = (m: ChainWorkerRequest) => {
            if (!settled) worker.postMessage(m);
          };
          if (!CHAIN_STORE_METHODS.includes(message.method)) {
            reply({ type: 'result', seq: message.seq, error: `unknown method ${String(message.method)}` });
            break;
          }
          const method = store[message.method] as (...args: unknown[]) => Promise<unknown>;
          method(...message.args).then(
            (value) => reply({ type: 'result', seq: message.seq, value }),
            (err: unknown) => reply({ type: 'result', seq: message.seq, error: err instanceof Error ? err.message : String(err) }),
          );
          break;
        }
        case 'progress':
          onProgress(message.checked, message.total);
          break;
        case 'done':
          end(() => resolve(message.result));
          break;
        case 'failed':
          end(() => reject(new Error(`audit chain worker: ${message.message}`)));
          break;
      }
    });
    worker.on('error', (err) => end(() => reject(err)));
    worker.on('exit', (code) => end(() => reject(new Error(`audit chain worker exited (${code}) without a verdict`))));
  });
  return {
    result,
    async terminate() {
      await worker.terminate();
    },
  };
}
