import type { ChainVerification } from './audit-chain.js';
import type { CHAIN_STORE_METHODS, ChainVerificationMode } from './chain-verification.js';

/** Messages between a verification run and its worker thread (see audit-chain.worker.ts). */

export interface ChainWorkerData {
  mode: ChainVerificationMode;
  batchSize?: number;
  checkpointEvery?: number;
  /** PostgreSQL: the worker connects itself; relay: it asks the main thread (PGlite). */
  source: { kind: 'postgres'; url: string } | { kind: 'relay' };
}

/** From the worker. */
export type ChainWorkerReply =
  | { type: 'call'; seq: number; method: (typeof CHAIN_STORE_METHODS)[number]; args: unknown[] }
  | { type: 'progress'; checked: number; total: number }
  | { type: 'done'; result: ChainVerification }
  | { type: 'failed'; message: string };

/** To the worker: the answer to a relayed call. */
export type ChainWorkerRequest = { type: 'result'; seq: number; value?: unknown; error?: string };
