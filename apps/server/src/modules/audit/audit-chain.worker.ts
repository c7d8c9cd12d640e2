import { parentPort, workerData } from 'node:worker_threads';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../../db/schema.js';
import { CHAIN_STORE_METHODS, chainStoreOf, walkChain, type ChainStore } from './chain-verification.js';
import type { ChainWorkerData, ChainWorkerReply, ChainWorkerRequest } from './audit-chain-worker.protocol.js';

/**
 * The worker thread of a hash-chain verification run: the hashing (canonical JSON and
 * SHA-256 of every event, the costly part) runs here, never on the thread that answers requests.
 *
 * - PostgreSQL: the worker opens its own connection (one) and walks the chain itself, checkpoints
 *   included; the main thread only hears progress and the verdict.
 * - PGlite: the database lives in the main thread's memory (one WebAssembly instance, one
 *   connection) and cannot be opened twice, so the worker asks the main thread for each page (a short
 *   indexed query, queued behind other requests like any other) and for the checkpoint writes.
 */

const data = workerData as ChainWorkerData;
const port = parentPort!;
const post = (message: ChainWorkerReply) => port.postMessage(message);

function relayStore(): ChainStore {
  let seq = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  port.on('message', (message: ChainWorkerRequest) => {
    if (message.type !== 'result') return;
    const call = pending.get(message.seq);
    if (!call) return;
    pending.delete(message.seq);
    if (message.error !== undefined) call.reject(new Error(message.error));
    else call.resolve(message.value);
  });
  const call = (method: (typeof CHAIN_STORE_METHODS)[number], args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      seq += 1;
      pending.set(seq, { resolve, reject });
      post({ type: 'call', seq, method, args });
    });
  return Object.fromEntries(CHAIN_STORE_METHODS.map((m) => [m, (...args: unknown[]) => call(m, args)])) as unknown as ChainStore;
}

async function main(): Promise<void> {
  let db: Kysely<Database> | null = null;
  try {
    let store: ChainStore;
    if (data.source.kind === 'postgres') {
      // One connection of its own; not db/database.ts, which would load PGlite into the worker too.
      pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
      db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: data.source.url, max: 1 }) }) });
      store = chainStoreOf(db);
    } else {
      store = relayStore();
    }
    const result = await walkChain(store, {
      mode: data.mode,
      ...(data.batchSize ? { batchSize: data.batchSize } : {}),
      ...(data.checkpointEvery ? { checkpointEvery: data.checkpointEvery } : {}),
      onProgress: (checked, total) => post({ type: 'progress', checked, total }),
    });
    post({ type: 'done', result });
  } catch (err) {
    post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  } finally {
    await db?.destroy().catch(() => {});
    port.close();
  }
}

void main();
