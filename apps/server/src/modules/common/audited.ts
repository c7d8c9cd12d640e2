import type { AuditService } from '../audit/audit.service.js';
import { failureCode } from './error-translator.js';
import type { RequestContext } from './request-context.js';

export interface AuditedAction<T> {
  action: string;
  /** The user acted on (null: none, e.g. the token inventory). */
  target: string | null;
  details: Record<string, unknown>;
  /** Added to `details` on success. */
  successDetails?: (result: T) => Record<string, unknown>;
  /**
   * The reason to record a result as a failure, or null: for a result that is an answer, not an error
   * (a wrong code checked for someone else is shown to the checker, and recorded as the failure it is).
   * The event then keeps `successDetails` too.
   */
  failureOf?: (result: T) => string | null;
}

/**
 * Runs a change and audits it: success with its details, or failure with the error code it answers
 * (`server.internal` for an unexpected failure). The error itself is passed on unchanged: the error
 * handler answers it.
 *
 * Atomic: the change and its success event are written in one database transaction, both
 * or neither; when the append fails the change is rolled back and the caller gets a 500. The failure
 * event is appended after the rollback, outside it.
 *
 * With the Duo provider the change happens at Duo and cannot be rolled back: the event is therefore
 * prepared (text made storable, details checked) BEFORE the change, so its append cannot fail for
 * anything the caller sent; only a database outage can still lose it.
 */
export async function audited<T>(audit: AuditService, ctx: RequestContext, what: AuditedAction<T>, fn: () => Promise<T>): Promise<T> {
  const common = {
    actor: { upn: ctx.upn, roles: ctx.roles },
    target: what.target,
    action: what.action,
    requestId: ctx.requestId,
    clientAddress: ctx.clientAddress,
  };
  const details = audit.prepare({ ...common, outcome: 'success', details: what.details }).details ?? {};
  try {
    return await audit.atomically(async () => {
      const result = await fn();
      const extra = what.successDetails
        ? audit.prepare({ ...common, outcome: 'success', details: what.successDetails(result) }).details
        : null;
      const failed = what.failureOf?.(result) ?? null;
      await audit.append({
        ...common,
        ...(failed ? { outcome: 'failure', reason: failed } : { outcome: 'success' }),
        details: { ...details, ...extra },
      });
      return result;
    });
  } catch (err) {
    await audit.append({ ...common, outcome: 'failure', reason: failureCode(err), details });
    throw err;
  }
}
