import type { AuditEvent } from './audit-chain.js';

/**
 * The outcome an audit event is shown with. Rows are hash-chained and never rewritten, so an event
 * recorded before a rule changed is read with today's rule instead: an identity check by the service
 * desk whose code was wrong was once recorded as a success with `verified: false`, and it proved
 * nothing, so it is shown as the failure it was (its reason from `details.result`). Every reader of
 * the log for people (the audit page, the user's page, the person's activity) goes through here; the
 * CSV export keeps the rows exactly as stored, as their hashes cover them.
 */
export function shownOutcome(e: Pick<AuditEvent, 'action' | 'outcome' | 'reason' | 'details'>): {
  outcome: 'success' | 'failure';
  reason: string | null;
} {
  if (e.outcome === 'success' && e.action === 'admin.user.verify_identity' && e.details?.verified === false) {
    const result = e.details.result;
    return { outcome: 'failure', reason: e.reason ?? (typeof result === 'string' && result.length <= 100 ? result : 'mfa.code_invalid') };
  }
  return { outcome: e.outcome === 'success' ? 'success' : 'failure', reason: e.reason };
}
