import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { runInTransaction } from '../../db/unit-of-work.js';
import { storableDetails, storableNullableText, storableText } from './audit-text.js';
import { assertNoSecrets, chainHash, type AuditEvent, type ChainedAuditEvent, type ChainVerification } from './audit-chain.js';
import { walkChain, type ChainVerificationMode } from './chain-verification.js';
import { auditRepository, type AuditFilter } from './audit.repository.js';
import { toChainedEvent } from './audit-row.js';
import { currentRequestMeta, requestAuditDetails } from '../../lib/request-meta.js';

export type { AuditFilter } from './audit.repository.js';
export { toChainedEvent } from './audit-row.js';

/**
 * The audit log: every change and every failed attempt, appended to a
 * hash-chained, append-only table. Appends are serialised on the single head row (SELECT ... FOR
 * UPDATE inside the appending transaction), so the chain has one order even with several instances.
 * Details never hold a secret or a code (refused before anything is written).
 */

export interface AuditActor {
  upn: string;
  roles: readonly string[];
}

export interface AuditEntry {
  /** Who acted (null: the system). */
  actor: AuditActor | null;
  /** The user the action is about (UPN). */
  target: string | null;
  /** Dotted action, e.g. `device.delete`. */
  action: string;
  outcome: 'success' | 'failure';
  /** Error code or cause of a failure. */
  reason?: string | null;
  requestId?: string | null;
  clientAddress?: string | null;
  details?: Record<string, unknown> | null;
  /** The client's User-Agent; defaults to that of the request in progress. */
  userAgent?: string | null;
}

/**
 * Called inside the appending transaction with the same executor, after the event is written: what it
 * writes (the notification outbox) commits or rolls back with the event.
 */
export type AuditAppendHook = (trx: Kysely<Database>, event: ChainedAuditEvent) => Promise<void>;

export interface AuditPage {
  events: ChainedAuditEvent[];
  nextCursor: string | null;
}

export interface AuditService {
  /**
   * Appends one event: on the ambient transaction when the caller runs in one (see
   * {@link AuditService.atomically}), else in a transaction of its own. The single place audit rows are written.
   */
  append(entry: AuditEntry, opts?: { now?: Date }): Promise<ChainedAuditEvent>;
  /**
   * Runs `fn` (a change and its `append`s) in one database transaction: both or neither, so no change goes unrecorded.
   * Joins the ambient transaction when already inside one.
   */
  atomically<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * The entry as it will be stored (text made storable, details checked for secrets): called before a
   * change that cannot be rolled back, so that its audit append cannot fail for what the caller sent.
   */
  prepare(entry: AuditEntry): AuditEntry;
  /**
   * Walks the chain (from the genesis hash, or `incremental`: from the latest checkpoint) up to the head
   * read at the start, a page at a time without a long transaction; reports the first broken row.
   */
  verify(opts?: { batchSize?: number; mode?: ChainVerificationMode }): Promise<ChainVerification>;
  /** Every event matching the filter, newest first, a page at a time (keyset: constant memory). */
  stream(filter: AuditFilter, opts?: { pageSize?: number }): AsyncGenerator<ChainedAuditEvent[]>;
  /** Events where `upn` is the target or the actor, newest first; `cursor` is the previous page's `nextCursor`. */
  listForUser(upn: string, opts: { cursor?: string; limit: number }): Promise<AuditPage>;
  /** The whole log filtered (Solution Administrator), newest first. */
  search(filter: AuditFilter, opts: { cursor?: string; limit: number }): Promise<AuditPage>;
}

/**
 * Test-only fault injection, to prove a failed append undoes its change: when set (and only under NODE_ENV=test), called before each
 * append; a throw makes the append fail, so tests can check that a change is rolled back with it.
 */
export const auditFaultsForTests: { beforeAppend: ((entry: AuditEntry) => void) | null } = { beforeAppend: null };

export function prepareAuditEntry(entry: AuditEntry): AuditEntry {
  // What the request adds to its actor's events (the unit that allowed an admin action); the entry's own details win.
  const extra = requestAuditDetails(entry.actor?.upn);
  const given = extra ? { ...extra, ...entry.details } : entry.details;
  const details = given ? storableDetails(given) : null;
  if (details) assertNoSecrets(details);
  return {
    actor: entry.actor ? { upn: storableText(entry.actor.upn), roles: entry.actor.roles.map(storableText) } : null,
    target: storableNullableText(entry.target),
    action: storableText(entry.action),
    outcome: entry.outcome,
    reason: storableNullableText(entry.reason),
    requestId: storableNullableText(entry.requestId),
    clientAddress: storableNullableText(entry.clientAddress),
    details,
    userAgent: storableNullableText(entry.userAgent !== undefined ? entry.userAgent : (currentRequestMeta()?.userAgent ?? null)),
  };
}

/** Appends one (prepared) event on `trx`, serialised on the chain head's row lock. */
async function appendOn(
  trx: Kysely<Database>,
  entry: AuditEntry,
  opts: { now?: Date; afterAppend?: AuditAppendHook } = {},
): Promise<ChainedAuditEvent> {
  if (process.env.NODE_ENV === 'test') auditFaultsForTests.beforeAppend?.(entry);
  const details = entry.details ?? null;
  const now = opts.now ?? new Date();
  const r = auditRepository(trx);
  const head = await r.lockHeadForAppend();
  if (!head) throw new Error('audit_head is missing: the audit log cannot be appended to');
  const id = head.nextId;
  const event: AuditEvent = {
    id: String(id),
    occurredAt: now,
    actorUpn: entry.actor?.upn ?? null,
    actorRoles: [...(entry.actor?.roles ?? [])],
    target: entry.target,
    action: entry.action,
    outcome: entry.outcome,
    reason: entry.reason ?? null,
    requestId: entry.requestId ?? null,
    clientAddress: entry.clientAddress ?? null,
    details,
    userAgent: entry.userAgent ?? null,
  };
  const hash = chainHash(head.hash, event);
  await r.appendAndMoveHead({
    id,
    occurred_at: now,
    actor_upn: event.actorUpn,
    actor_roles: [...event.actorRoles],
    target_upn: event.target,
    action: event.action,
    outcome: event.outcome,
    reason: event.reason,
    request_id: event.requestId,
    client_address: event.clientAddress,
    details: details ? JSON.stringify(details) : null,
    user_agent: event.userAgent ?? null,
    prev_hash: head.hash,
    hash,
  });
  const chained = { ...event, prevHash: head.hash, hash };
  // What the hook writes (the notification outbox) commits or rolls back with the event.
  await opts.afterAppend?.(trx, chained);
  return chained;
}

export function createAuditService(db: Kysely<Database>, hooks: { afterAppend?: AuditAppendHook } = {}): AuditService {
  const repo = auditRepository(db);
  const afterAppend = hooks.afterAppend;
  return {
    async append(entry, opts = {}) {
      const prepared = prepareAuditEntry(entry);
      // Joins the ambient transaction (the change's) when there is one: `db` is the unit of work's.
      return db.transaction().execute((trx) => appendOn(trx, prepared, { ...opts, afterAppend }));
    },

    atomically(fn) {
      return runInTransaction(db, fn);
    },

    prepare: prepareAuditEntry,

    async verify(opts = {}) {
      return walkChain(db, { mode: opts.mode ?? 'full', ...(opts.batchSize ? { batchSize: opts.batchSize } : {}) });
    },

    async *stream(filter, opts = {}) {
      const pageSize = opts.pageSize ?? 1000;
      let beforeId: number | null = null;
      for (;;) {
        const rows = await repo.search(filter, beforeId, pageSize);
        if (rows.length === 0) return;
        yield rows.map(toChainedEvent);
        if (rows.length < pageSize) return;
        beforeId = Number(rows[rows.length - 1]!.id);
      }
    },

    async search(filter, opts) {
      const rows = await repo.search(filter, opts.cursor ? Number(opts.cursor) : null, opts.limit + 1);
      const page = rows.slice(0, opts.limit);
      return { events: page.map(toChainedEvent), nextCursor: rows.length > opts.limit ? String(page[page.length - 1]!.id) : null };
    },

    async listForUser(upn, opts) {
      const rows = await repo.forUser(upn.toLowerCase(), opts.cursor ? Number(opts.cursor) : null, opts.limit + 1);
      const page = rows.slice(0, opts.limit);
      return { events: page.map(toChainedEvent), nextCursor: rows.length > opts.limit ? String(page[page.length - 1]!.id) : null };
    },
  };
}
