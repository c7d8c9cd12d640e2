import { DEFAULT_RESTRICTED_ROLES } from './constants.js';

/** Logical roles. Their names in the token's `roles` claim are configuration (see server config). */
export const ROLE_HELPDESK = 'Helpdesk Administrator';
export const ROLE_SOLUTION_ADMIN = 'Solution Administrator';

/**
 * The app role VALUES to define in Entra ID (the string its `roles` claim carries). Entra refuses
 * spaces in a value; the display names stay as the specification names the roles (above). These are
 * the defaults of ROLE_HELPDESK and ROLE_SOLUTION_ADMIN when IDP_MODE=entra.
 */
export const ENTRA_ROLE_HELPDESK = 'Helpdesk.Administrator';
export const ENTRA_ROLE_SOLUTION_ADMIN = 'Solution.Administrator';

/** Role names that mean "an administrator" under the default settings of either mode. */
export const DEFAULT_ADMIN_ROLE_NAMES: readonly string[] = [
  ROLE_SOLUTION_ADMIN,
  ROLE_HELPDESK,
  ENTRA_ROLE_SOLUTION_ADMIN,
  ENTRA_ROLE_HELPDESK,
];

export type PortalRole = 'staff' | 'helpdesk' | 'solution_admin';

export interface RoleNames {
  helpdesk: string;
  solutionAdmin: string;
  restricted: readonly string[];
}

export const DEFAULT_ROLE_NAMES: RoleNames = {
  helpdesk: ROLE_HELPDESK,
  solutionAdmin: ROLE_SOLUTION_ADMIN,
  restricted: DEFAULT_RESTRICTED_ROLES,
};

/** Highest portal role granted by a token's `roles` claim. */
export function portalRoleOf(roles: readonly string[], names: RoleNames = DEFAULT_ROLE_NAMES): PortalRole {
  if (roles.includes(names.solutionAdmin)) return 'solution_admin';
  if (roles.includes(names.helpdesk)) return 'helpdesk';
  return 'staff';
}

/** A protected account holds at least one restricted role. */
export function isProtectedAccount(roles: readonly string[], names: RoleNames = DEFAULT_ROLE_NAMES): boolean {
  return roles.some((r) => names.restricted.includes(r));
}
