import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  assertNoSecrets,
  chainHash,
  GENESIS_HASH,
  verifyChain,
  type AuditEvent,
  type ChainedAuditEvent,
  type ChainVerification,
} from './audit-chain.js';
import { auditRepository, type AuditFilter, type AuditRow } from './audit.repository.js';

export type { AuditFilter } from './audit.repository.js';

/**
 * The audit log (issue 3, "Audit"): every change and every failed attempt, appended to a
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
}

export interface AuditPage {
  events: ChainedAuditEvent[];
  nextCursor: string | null;
}

export interface AuditService {
  append(entry: AuditEntry, opts?: { now?: Date }): Promise<ChainedAuditEvent>;
  /** Walks the whole chain from the genesis hash and checks the stored head; reports the first broken row. */
  verify(opts?: { batchSize?: number }): Promise<ChainVerification>;
  /** Events where `upn` is the target or the actor, newest first; `cursor` is the previous page's `nextCursor`. */
  listForUser(upn: string, opts: { cursor?: string; limit: number }): Promise<AuditPage>;
  /** The whole log filtered (Solution Administrator), newest first. */
  search(filter: AuditFilter, opts: { cursor?: string; limit: number }): Promise<AuditPage>;
}

export function toChainedEvent(row: AuditRow): ChainedAuditEvent {
  return {
    id: String(row.id),
    occurredAt: row.occurred_at,
    actorUpn: row.actor_upn,
    actorRoles: row.actor_roles,
    target: row.target_upn,
    action: row.action,
    outcome: row.outcome,
    reason: row.reason,
    requestId: row.request_id,
    clientAddress: row.client_address,
    details: row.details,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

export function createAuditService(db: Kysely<Database>): AuditService {
  const repo = auditRepository(db);
  return {
    async append(entry, opts = {}) {
      const details = entry.details ?? null;
      if (details) assertNoSecrets(details);
      const now = opts.now ?? new Date();
      // Only `trx` inside (PGlite deadlocks on `db` within a transaction).
      return db.transaction().execute(async (trx) => {
        const r = auditRepository(trx);
        const head = await r.lockHead();
        if (!head) throw new Error('audit_head is missing: the audit log cannot be appended to');
        const id = await r.nextId();
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
        };
        const hash = chainHash(head.hash, event);
        await r.insert({
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
          prev_hash: head.hash,
          hash,
        });
        await r.setHead(hash, id, now);
        return { ...event, prevHash: head.hash, hash };
      });
    },

    async verify(opts = {}) {
      const batchSize = opts.batchSize ?? 1000;
      // One snapshot: appends running meanwhile neither break nor extend what is checked.
      return db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx): Promise<ChainVerification> => {
          const r = auditRepository(trx);
          let anchor = GENESIS_HASH;
          let afterId = 0;
          let count = 0;
          for (;;) {
            const rows = await r.page(afterId, batchSize);
            if (rows.length === 0) break;
            const result = verifyChain(rows.map(toChainedEvent), { anchor });
            if (!result.ok) return { ...result, brokenAt: count + result.brokenAt };
            count += rows.length;
            anchor = result.head;
            afterId = rows[rows.length - 1]!.id;
          }
          const head = await r.readHead();
          // The stored head must be the last row's hash: rows removed at the end show here.
          if (!head || head.hash !== anchor) return { ok: false, brokenAt: count, id: null, reason: 'prev_mismatch' };
          return { ok: true, count, head: anchor };
        });
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
