import type { ActivityEvent } from '@mfa-portal/shared';
import type { ChainedAuditEvent } from './audit-chain.js';

/** An audit event as the API shows it (the client address only where the reader may see it). */
export function toActivityEvent(e: ChainedAuditEvent): ActivityEvent & { clientAddress: string | null } {
  return {
    id: e.id,
    occurredAt: new Date(e.occurredAt).toISOString(),
    actorUpn: e.actorUpn,
    actorRoles: [...e.actorRoles],
    targetUpn: e.target,
    action: e.action,
    outcome: e.outcome === 'success' ? 'success' : 'failure',
    reason: e.reason,
    requestId: e.requestId,
    clientAddress: e.clientAddress,
    details: e.details ? { ...e.details } : null,
  };
}
