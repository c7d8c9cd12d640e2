import type { PortalRole } from '@mfa-portal/shared';
import { useUser } from '../shell/contexts';

/** Portal roles that see the administration area. */
export const ADMIN_ROLES: readonly PortalRole[] = ['helpdesk', 'solution_admin'];

/**
 * The signed-in user's portal role, from the profile (getuserinfo). The server decides every admin
 * call on the token's roles; the screens use this only to show or hide what would be refused.
 */
export function usePortalRole(): PortalRole {
  const { user } = useUser();
  return user?.portalRole ?? 'staff';
}

export function useIsAdmin(): boolean {
  return ADMIN_ROLES.includes(usePortalRole());
}
