import type { Kysely } from 'kysely';
import type { Policy } from './auth/policy.js';
import type { AppConfig } from './config.js';
import type { Database } from './db/schema.js';
import { createAdminScopes } from './modules/admin/common/admin-scope.js';
import { reportsRepository } from './modules/admin/reports/reports.repository.js';
import { createReportsService } from './modules/admin/reports/reports.service.js';
import { unitsRepository } from './modules/admin/units/units.repository.js';
import { createUnitsService } from './modules/admin/units/units.service.js';
import type { AuditService } from './modules/audit/audit.service.js';

/**
 * The administrative units side of the composition root (services.ts builds everything else): whom
 * each administrator reaches (read from the database on every request, never kept), the units'
 * service for Solution Administrators, and the reports of a unit's people (counted live).
 */
export function buildAdminUnits(
  config: Pick<AppConfig, 'helpdeskScopeRequired'>,
  deps: { db: Kysely<Database>; audit: AuditService; policy: Policy; provider: string },
) {
  const { db, audit, policy, provider } = deps;
  const repo = unitsRepository(db);
  return {
    scopes: createAdminScopes({ membership: repo, policy, required: config.helpdeskScopeRequired }),
    units: createUnitsService({ repo, audit, policy }),
    /** The reports of the people of some units: counted now at any size, with no history of their own. */
    reportsForUnits: (unitIds: readonly string[]) =>
      createReportsService({ repo: reportsRepository(db, { within: unitIds }), provider, liveMaxStaff: Number.POSITIVE_INFINITY }),
  };
}
