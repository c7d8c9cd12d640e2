import type { ActivityEvent } from '@mfa-portal/shared';
import type { ChainedAuditEvent } from './audit-chain.js';
import { shownOutcome } from './shown-outcome.js';

/**
 * An audit event as the API shows it (the client address only where the reader may see it), with
 * the outcome it is shown with (see {@link shownOutcome}): the stored row is never changed.
 */
export function toActivityEvent(e: ChainedAuditEvent): ActivityEvent & { clientAddress: string | null } {
  const { outcome, reason } = shownOutcome(e);
  return {
    id: e.id,
    occurredAt: new Date(e.occurredAt).toISOString(),
    actorUpn: e.actorUpn,
    actorRoles: [...e.actorRoles],
    targetUpn: e.target,
    action: e.action,
    outcome,
    reason,
    requestId: e.requestId,
    clientAddress: e.clientAddress,
    details: e.details ? { ...e.details } : null,
  };
}
