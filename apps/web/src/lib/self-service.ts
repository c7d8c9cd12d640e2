import { useUser } from '../shell/contexts';

/**
 * Whether the signed-in user may change their own MFA here. Holders of a restricted role (protected
 * accounts) may not: a Solution Administrator other than themselves makes those changes. The server
 * enforces this; the screens only hide what would be refused and say why.
 */
export function useCanChangeOwnMfa(): boolean {
  const { user } = useUser();
  return !user?.isProtected;
}
