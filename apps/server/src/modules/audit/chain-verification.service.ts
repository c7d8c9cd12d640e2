import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ChainVerification } from './audit-chain.js';
import type { ChainVerificationMode } from './chain-verification.js';
import { runChainWorker, type ChainWorkerRun } from './audit-chain-worker.client.js';
import { chainVerificationRepository, type ChainVerificationRow } from './chain-verification.repository.js';

/**
 * Verification runs of the audit hash chain, at any size without blocking requests: started by a request that answers at once
 * (202) with the run's id; the walk goes on in a worker thread (audit-chain.worker.ts: the hashing
 * never runs on the thread that answers requests) and its progress is recorded in
 * `audit_verification`, so any instance can answer a poll. A run
 * that stopped reporting (its instance went away) for {@link STALE_AFTER_MS} shows as failed.
 * Starting while a run of the same mode is going returns that run: one walk at a time.
 */

export const STALE_AFTER_MS = 60_000;
const PROGRESS_EVERY_MS = 250;

export interface ChainVerificationRun {
  id: string;
  mode: ChainVerificationMode;
  state: 'running' | 'done' | 'failed';
  checked: number;
  total: number;
  startedAt: string;
  finishedAt: string | null;
  result: ChainVerification | { ok: false; error: string } | null;
}

export interface ChainVerificationService {
  start(opts: { mode: ChainVerificationMode; startedBy: string | null }): Promise<ChainVerificationRun>;
  get(id: string): Promise<ChainVerificationRun | null>;
  /** Resolves when the run started by this instance ends (tests, and the synchronous GET /audit/verify). */
  settled(id: string): Promise<void>;
  /** Shutdown: stops the workers of this instance's runs (they end as failed, `interrupted`). */
  close(): Promise<void>;
}

export function createChainVerificationService(
  db: Kysely<Database>,
  opts: {
    clock?: () => Date;
    batchSize?: number;
    checkpointEvery?: number;
    /** PostgreSQL: the worker opens its own connection to it; without, it reads through `db` (PGlite). */
    databaseUrl?: string;
    onError?: (err: unknown) => void;
    /** Told how each run ended (metrics): the chain is intact, broken, or the run failed. */
    onFinished?: (result: 'ok' | 'broken' | 'error') => void;
  } = {},
): ChainVerificationService {
  const repo = chainVerificationRepository(db);
  const clock = opts.clock ?? (() => new Date());
  const running = new Map<string, Promise<void>>();
  const workers = new Map<string, ChainWorkerRun>();
  let closing = false;

  const toRun = (row: ChainVerificationRow): ChainVerificationRun => {
    const stale =
      row.state === 'running' && clock().getTime() - new Date(row.updated_at).getTime() > STALE_AFTER_MS && !running.has(row.id);
    return {
      id: row.id,
      mode: row.mode,
      state: stale ? 'failed' : row.state,
      checked: Number(row.checked),
      total: Number(row.total),
      startedAt: new Date(row.started_at).toISOString(),
      finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
      result: stale ? { ok: false, error: 'interrupted' } : (row.result as ChainVerificationRun['result']),
    };
  };

  async function run(id: string, mode: ChainVerificationMode): Promise<void> {
    let checked = 0;
    let lastWrite = 0;
    let writing: Promise<unknown> = Promise.resolve();
    try {
      const worker = runChainWorker(
        db,
        {
          mode,
          ...(opts.batchSize ? { batchSize: opts.batchSize } : {}),
          ...(opts.checkpointEvery ? { checkpointEvery: opts.checkpointEvery } : {}),
          source: opts.databaseUrl ? { kind: 'postgres', url: opts.databaseUrl } : { kind: 'relay' },
        },
        (done, total) => {
          checked = done;
          const now = clock();
          if (now.getTime() - lastWrite >= PROGRESS_EVERY_MS) {
            lastWrite = now.getTime();
            writing = writing.then(() => repo.progress(id, done, total, now)).catch(() => {});
          }
        },
      );
      workers.set(id, worker);
      const result = await worker.result.finally(() => workers.delete(id));
      await writing;
      await repo.finish(id, 'done', { ...result }, result.ok ? result.count : checked, clock());
      opts.onFinished?.(result.ok ? 'ok' : 'broken');
    } catch (err) {
      await writing;
      const error = closing ? 'interrupted' : 'internal';
      if (!closing) opts.onError?.(err);
      opts.onFinished?.('error');
      await repo.finish(id, 'failed', { ok: false, error }, checked, clock()).catch(() => {});
    }
  }

  return {
    async start({ mode, startedBy }) {
      const now = clock();
      const going = await repo.findRunning(mode, new Date(now.getTime() - STALE_AFTER_MS));
      if (going) return toRun(going);
      const row = await repo.insert({ id: randomUUID(), mode, started_by: startedBy, at: now });
      const promise = run(row.id, mode).finally(() => running.delete(row.id));
      running.set(row.id, promise);
      return toRun(row);
    },
    async get(id) {
      const row = await repo.find(id);
      return row ? toRun(row) : null;
    },
    async settled(id) {
      await running.get(id);
    },
    async close() {
      closing = true;
      await Promise.all([...workers.values()].map((w) => w.terminate()));
      await Promise.all(running.values());
    },
  };
}
