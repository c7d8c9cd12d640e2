import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AuditEntry, AuditService } from '../audit/audit.service.js';
import { conflict } from './scim-errors.js';
import { scimRepository, type ScimRepository } from './scim.repository.js';

/** Who calls (the SCIM token's name) and from where: the actor of every audit event. */
export interface ScimContext {
  tokenName: string;
  /**
   * The Solution Administrator who created the token (lower case); null for the environment's token.
   * Their own account is out of the token's reach, so a token cannot be turned on its maker.
   */
  tokenCreatedBy: string | null;
  requestId: string;
  clientAddress: string | null;
}

export const SCIM_ACTOR_ROLE = 'scim';

export function auditEntry(
  ctx: ScimContext,
  e: Pick<AuditEntry, 'action' | 'target' | 'details'> & Partial<Pick<AuditEntry, 'outcome' | 'reason'>>,
): AuditEntry {
  return {
    actor: { upn: ctx.tokenName, roles: [SCIM_ACTOR_ROLE] },
    outcome: 'success',
    requestId: ctx.requestId,
    clientAddress: ctx.clientAddress,
    ...e,
  };
}

const isUniqueViolation = (err: unknown) => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';

/**
 * Runs a SCIM change and its audit event in one transaction (the audit log's `append` joins it: both
 * or neither). A unique violation (two requests racing for one userName) is a 409.
 */
export async function inTransaction<T>(
  db: Kysely<Database>,
  auditLog: AuditService,
  ctx: ScimContext,
  fn: (r: ScimRepository, trx: Kysely<Database>) => Promise<{ result: T; audit: Omit<Parameters<typeof auditEntry>[1], never> }>,
): Promise<T> {
  try {
    return await db.transaction().execute(async (trx) => {
      const { result, audit } = await fn(scimRepository(trx), trx);
      await auditLog.append(auditEntry(ctx, audit));
      return result;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('A resource with this name already exists.');
    throw err;
  }
}
