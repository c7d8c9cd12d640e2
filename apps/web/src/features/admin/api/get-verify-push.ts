import { useQuery } from '@tanstack/react-query';
import { adminVerifyPushStatusSchema, type AdminVerifyPushStatus, type PushTransaction } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { pollWhileWaiting } from '../../../lib/push/push-polling';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';
import { useInvalidateUser } from './use-invalidate-user';

/** GET /api/admin/users/:upn/verify-identity/push/:txid: waiting, approved, denied, fraud or timeout (`verified` once approved). */
export function getVerifyPush(api: ApiClient, upn: string, txid: string, signal?: AbortSignal): Promise<AdminVerifyPushStatus> {
  return api.request(ADMIN_API.verifyIdentityPushStatus(upn, txid), { signal, schema: adminVerifyPushStatusSchema });
}

/**
 * Polls a verification push this administrator sent until it is answered. The server audits the
 * answer on the poll that sees it; the user's page and lost-device progress are then refreshed, so an
 * approval counts as a recent identity check exactly as a right passcode does. Polling stops when the
 * screen showing it goes away (no observer left; `gcTime: 0` forgets it).
 */
export function useVerifyPush(upn: string, started: PushTransaction | undefined) {
  const api = useApiClient();
  const invalidate = useInvalidateUser(upn);
  const txid = started?.txid ?? '';
  return useQuery({
    queryKey: adminKeys.verifyPush(upn, txid),
    queryFn: async ({ signal }) => {
      const push = await getVerifyPush(api, upn, txid, signal);
      if (push.state !== 'waiting') void invalidate();
      return push;
    },
    enabled: started !== undefined,
    initialData: started ? { ...started, verified: false } : undefined,
    initialDataUpdatedAt: 0,
    refetchInterval: pollWhileWaiting,
    retry: false,
    gcTime: 0,
  });
}
