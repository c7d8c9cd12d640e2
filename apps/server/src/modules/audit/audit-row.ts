import type { ChainedAuditEvent } from './audit-chain.js';
import type { AuditRow } from './audit.repository.js';

/** A stored audit row as the hash chain reads it. */
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
    userAgent: row.user_agent ?? null,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}
