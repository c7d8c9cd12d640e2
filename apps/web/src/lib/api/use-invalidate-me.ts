import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { meKeys } from './query-keys';

/**
 * After any change to the user's MFA: refetch everything about them (devices, bypass codes, activity)
 * and the profile, whose new MFA summary useProfile writes to MfaDataContext.
 */
export function useInvalidateMe(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: meKeys.all }), [queryClient]);
}
