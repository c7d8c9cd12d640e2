import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { GENESIS_HASH, verifyChain, type ChainVerification } from './audit-chain.js';
import { auditRepository, type AuditRow } from './audit.repository.js';
import { toChainedEvent } from './audit-row.js';

/**
 * Hash-chain verification at any size. It never holds a transaction open for the whole
 * walk (PGlite has one connection: that would stop every other request), reads the chain a page at a
 * time and yields to the event loop between pages so other requests keep being served, and stops at
 * the head it read when it started (events appended meanwhile are for the next run).
 *
 * - `full` walks the chain from the genesis hash.
 * - `incremental` starts from the latest checkpoint (an event id, its hash and how many events lead to
 *   it, written by earlier runs), after checking that the event there still carries that hash: a
 *   re-check reads only what is new. What it cannot see, by design: a row before the checkpoint whose
 *   content was edited while its stored hash was kept; a `full` run finds that.
 *
 * Checkpoints are written every `checkpointEvery` events and at the end of an intact walk.
 */

export type ChainVerificationMode = 'full' | 'incremental';

export interface ChainWalkOptions {
  mode: ChainVerificationMode;
  batchSize?: number;
  checkpointEvery?: number;
  onProgress?: (checked: number, total: number) => void | Promise<void>;
}

/** What the walk reads and writes: the audit repository, or a relay to it (a worker thread on PGlite). */
export interface ChainStore {
  readHead(): Promise<{ hash: string; last_event_id: number | string | null } | undefined>;
  latestCheckpoint(upToId: number): Promise<{ last_event_id: number | string; hash: string; event_count: number | string } | undefined>;
  eventHash(id: number): Promise<{ hash: string } | undefined>;
  countBetween(afterId: number, upToId: number): Promise<number>;
  pageUpTo(afterId: number, upToId: number, limit: number): Promise<AuditRow[]>;
  insertCheckpoint(lastEventId: number, hash: string, eventCount: number): Promise<unknown>;
}

/** The store's methods a relay may call (nothing else crosses the thread boundary). */
export const CHAIN_STORE_METHODS = ['readHead', 'latestCheckpoint', 'eventHash', 'countBetween', 'pageUpTo', 'insertCheckpoint'] as const;

export function chainStoreOf(db: Kysely<Database>): ChainStore {
  return auditRepository(db);
}

/** The walk on `db` in this thread (the in-process `AuditService.verify`, tests, and the worker). */
export async function walkChain(db: Kysely<Database> | ChainStore, opts: ChainWalkOptions): Promise<ChainVerification> {
  const repo = 'readHead' in db ? db : chainStoreOf(db);
  const batchSize = opts.batchSize ?? 2000;
  const checkpointEvery = opts.checkpointEvery ?? 100_000;
  const head = await repo.readHead();
  if (!head) return { ok: false, brokenAt: 0, id: null, reason: 'prev_mismatch' };
  const lastId = head.last_event_id === null ? 0 : Number(head.last_event_id);

  let anchor = GENESIS_HASH;
  let afterId = 0;
  let count = 0;
  if (opts.mode === 'incremental') {
    const checkpoint = await repo.latestCheckpoint(lastId);
    if (checkpoint) {
      const at = await repo.eventHash(Number(checkpoint.last_event_id));
      // The checkpoint's event must still be there with the same hash, or the chain was cut or rewritten.
      if (!at || at.hash !== checkpoint.hash) {
        return {
          ok: false,
          brokenAt: Number(checkpoint.event_count) - 1,
          id: String(checkpoint.last_event_id),
          reason: at ? 'hash_mismatch' : 'prev_mismatch',
        };
      }
      anchor = checkpoint.hash;
      afterId = Number(checkpoint.last_event_id);
      count = Number(checkpoint.event_count);
    }
  }
  const total = count + (await repo.countBetween(afterId, lastId));
  await opts.onProgress?.(count, total);
  let sinceCheckpoint = 0;
  for (;;) {
    const rows = await repo.pageUpTo(afterId, lastId, batchSize);
    if (rows.length === 0) break;
    const result = verifyChain(rows.map(toChainedEvent), { anchor });
    if (!result.ok) return { ...result, brokenAt: count + result.brokenAt };
    count += rows.length;
    sinceCheckpoint += rows.length;
    anchor = result.head;
    afterId = Number(rows[rows.length - 1]!.id);
    if (sinceCheckpoint >= checkpointEvery) {
      await repo.insertCheckpoint(afterId, anchor, count);
      sinceCheckpoint = 0;
    }
    await opts.onProgress?.(count, total);
    // Let other requests run between pages: hashing a page takes milliseconds, not seconds.
    await yieldToEventLoop();
  }
  // The head read at the start must be the last row's hash: rows removed at the end show here.
  if (head.hash !== anchor) return { ok: false, brokenAt: count, id: null, reason: 'prev_mismatch' };
  if (sinceCheckpoint > 0) await repo.insertCheckpoint(afterId, anchor, count);
  return { ok: true, count, head: anchor };
}
