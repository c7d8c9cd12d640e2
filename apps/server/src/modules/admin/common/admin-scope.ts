import type { Selectable } from 'kysely';
import type { AdminReach } from '@mfa-portal/shared';
import type { DirectoryUserTable } from '../../../db/schema.js';
import type { Actor, Policy } from '../../../auth/policy.js';

/**
 * Whom an administrator can reach: everyone, or the people of some administrative units.
 *
 * - A Solution Administrator reaches everyone (units never narrow them).
 * - A Helpdesk Administrator assigned to at least one unit (in person, or through a directory group
 *   they are in) reaches only the people of those units.
 * - A Helpdesk Administrator assigned to none reaches everyone, unless HELPDESK_SCOPE_REQUIRED: then
 *   nobody, until a Solution Administrator assigns them.
 *
 * Read from the database on every request and never kept: leaving a directory group (or a unit) takes
 * effect on the very next request, on every instance.
 */

export interface UnitRef {
  id: string;
  name: string;
}

/** Everyone, or the people of `units` (none: nobody). */
export type AdminScope = { kind: 'everyone' } | { kind: 'units'; units: UnitRef[] };

export const EVERYONE: AdminScope = { kind: 'everyone' };
/** What a request without a recorded decision reaches: nobody (fail closed). */
export const NOBODY: AdminScope = { kind: 'units', units: [] };

/** What the scope needs to read of the units (the units repository's SQL). */
export interface UnitMembership {
  /** The units a helpdesk member serves, in person or through a directory group, by name. */
  unitsServedBy(upn: string): Promise<UnitRef[]>;
  /** Which of `unitIds` hold the person (through a group or by name), by name. */
  unitsHolding(upn: string, unitIds: readonly string[]): Promise<UnitRef[]>;
  /** The directory's people the units hold who match an admin user search, by sign-in name after `afterUpn`. */
  searchMembers(
    unitIds: readonly string[],
    query: string,
    afterUpn: string | null,
    limit: number,
  ): Promise<Selectable<DirectoryUserTable>[]>;
}

export function createAdminScopes(deps: { membership: UnitMembership; policy: Policy; required: boolean }) {
  const { membership, policy, required } = deps;
  return {
    required,

    /** The caller's scope now. Staff reach nobody (they are refused before anyway). */
    async of(actor: Actor): Promise<AdminScope> {
      const role = policy.roleOf(actor);
      if (role === 'solution_admin') return EVERYONE;
      if (role !== 'helpdesk') return NOBODY;
      const units = await membership.unitsServedBy(actor.upn.toLowerCase());
      return units.length > 0 || required ? { kind: 'units', units } : EVERYONE;
    },

    /**
     * The units of the scope that hold the person (the first names the unit in the audit log); an
     * empty list: outside the scope. Null for a scope of everyone.
     */
    async unitsAllowing(scope: AdminScope, upn: string): Promise<UnitRef[] | null> {
      if (scope.kind === 'everyone') return null;
      if (scope.units.length === 0) return [];
      return membership.unitsHolding(
        upn.toLowerCase(),
        scope.units.map((u) => u.id),
      );
    },

    /** Admin user search within a scope limited to units (the directory's people they hold). */
    searchWithin(scope: Extract<AdminScope, { kind: 'units' }>, query: string, afterUpn: string | null, limit: number) {
      if (scope.units.length === 0) return Promise.resolve([]);
      return membership.searchMembers(
        scope.units.map((u) => u.id),
        query,
        afterUpn,
        limit,
      );
    },

    /** The scope as the caller may read it (the helpdesk screens say whom they can help). */
    reachOf(scope: AdminScope): AdminReach {
      if (scope.kind === 'everyone') return { reach: 'everyone', units: [] };
      return { reach: scope.units.length > 0 ? 'units' : 'nobody', units: scope.units };
    },
  };
}

export type AdminScopes = ReturnType<typeof createAdminScopes>;

/** The unit ids of a scope limited to units; null for everyone. */
export const unitIdsOf = (scope: AdminScope): string[] | null => (scope.kind === 'everyone' ? null : scope.units.map((u) => u.id));
