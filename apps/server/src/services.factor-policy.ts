import type { Kysely } from 'kysely';
import type { Database } from './db/schema.js';
import type { MfaProvider } from './mfa/index.js';
import { builtinHoldings, providerHoldings } from './modules/admin/factor-policy/factor-holdings.js';
import { createFactorPolicyAdminService } from './modules/admin/factor-policy/factor-policy-admin.service.js';
import type { AuditService } from './modules/audit/audit.service.js';
import { factorPolicyRepository } from './modules/factor-policy/factor-policy.repository.js';
import { createFactorPolicyService } from './modules/factor-policy/factor-policy.service.js';

/**
 * The factor policy's part of the composition root (services.ts builds everything else): each person's
 * policy, read with their directory groups on every request, which enrolment, sign-in and step-up ask;
 * and the Solution Administrator's side, whose preview weighs what people hold (the builtin store in a
 * few statements; another provider, whose devices the portal does not hold, person by person).
 */
export function buildFactorPolicy(deps: { db: Kysely<Database>; mfa: MfaProvider; audit: AuditService }) {
  const repo = factorPolicyRepository(deps.db);
  const factorPolicy = createFactorPolicyService({ repo, mfa: deps.mfa });
  const holdings = deps.mfa.name === 'builtin' ? builtinHoldings(deps.db) : providerHoldings(deps.mfa);
  const factorPolicyAdmin = createFactorPolicyAdminService({ repo, audit: deps.audit, holdings });
  return { factorPolicy, factorPolicyAdmin };
}
