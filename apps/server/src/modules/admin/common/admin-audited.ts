import type { PortalRole } from '@mfa-portal/shared';
import type { AuditService } from '../../audit/audit.service.js';
import { audited } from '../../common/audited.js';
import type { RequestContext } from '../../common/request-context.js';
import type { Justification } from './authorization.js';

/** Runs an admin change and audits it with the role used, the reason and the ticket (see {@link audited}, and its `failureOf`). */
export function adminAudited<T>(
  audit: AuditService,
  ctx: RequestContext,
  role: PortalRole,
  action: string,
  target: string | null,
  j: Justification,
  details: Record<string, unknown>,
  fn: () => Promise<T>,
  successDetails?: (result: T) => Record<string, unknown>,
  failureOf?: (result: T) => string | null,
): Promise<T> {
  const base = { role, ...(j.reason ? { reason: j.reason } : {}), ...(j.ticket ? { ticket: j.ticket } : {}), ...details };
  return audited(
    audit,
    ctx,
    { action, target, details: base, ...(successDetails ? { successDetails } : {}), ...(failureOf ? { failureOf } : {}) },
    fn,
  );
}
