import { useQuery } from '@tanstack/react-query';
import { notificationOutboxStatusSchema } from '@mfa-portal/shared';
import { useApiClient } from '../../../lib/api/api-client';

/** The security e-mail outbox as administrators see it: counts by state and the latest messages. */
export function useNotificationOutbox() {
  const api = useApiClient();
  return useQuery({
    queryKey: ['admin', 'notifications'] as const,
    queryFn: ({ signal }) => api.request('/api/admin/notifications?limit=20', { signal, schema: notificationOutboxStatusSchema }),
  });
}
