import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { adminKeys } from './query-keys';

/** After an action on a user: refetch their page and their lost-device progress. */
export function useInvalidateUser(upn: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: adminKeys.user(upn) }), [queryClient, upn]);
}
