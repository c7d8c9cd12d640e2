import { hasMfaData, useUser } from '../shell/contexts';

/**
 * Whether the signed-in user may change their own MFA here. Holders of a restricted role (protected
 * accounts) may not: a Solution Administrator other than themselves makes those changes. One exception:
 * a protected account with no device adds its first one itself, with an enrolment pass (the add-device
 * screens ask for it). The server enforces all of this; the screens only hide what would be refused.
 */
export function useCanChangeOwnMfa(): boolean {
  const { user, mfaData } = useUser();
  if (!user?.isProtected) return true;
  return hasMfaData(mfaData) && mfaData.devices.length === 0;
}
