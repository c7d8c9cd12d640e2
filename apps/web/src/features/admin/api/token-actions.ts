import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  adminTokenImportResponseSchema,
  adminTokenSchema,
  type AdminActionBody,
  type AdminToken,
  type AdminTokenImportResponse,
  type AdminTokenUnassignBody,
} from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/** POST /api/admin/tokens/import: valid rows are imported, the others reported with the reason. */
export function importTokens(api: ApiClient, body: { csv: string } & AdminActionBody): Promise<AdminTokenImportResponse> {
  return api.request(ADMIN_API.tokenImport, { method: 'POST', body, schema: adminTokenImportResponseSchema });
}

/**
 * POST /api/admin/tokens/:serial/unassign: takes a token from its holder (their device of it is removed);
 * their only device needs `confirmLastDevice`.
 */
export function unassignToken(api: ApiClient, serial: string, body: AdminTokenUnassignBody): Promise<AdminToken> {
  return api.request(ADMIN_API.tokenUnassign(serial), { method: 'POST', body, schema: adminTokenSchema });
}

/** POST /api/admin/tokens/:serial/retire: an unassigned token, for good. */
export function retireToken(api: ApiClient, serial: string, body: AdminActionBody): Promise<AdminToken> {
  return api.request(ADMIN_API.tokenRetire(serial), { method: 'POST', body, schema: adminTokenSchema });
}

/** After any inventory change: the lists, and every user page (a holder's devices change). */
function useInvalidateInventory() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminKeys.all });
}

export function useImportTokens() {
  const api = useApiClient();
  const invalidate = useInvalidateInventory();
  return useMutation({ mutationFn: (body: { csv: string } & AdminActionBody) => importTokens(api, body), onSuccess: invalidate });
}

export function useUnassignToken() {
  const api = useApiClient();
  const invalidate = useInvalidateInventory();
  return useMutation({
    mutationFn: ({ serial, ...body }: { serial: string } & AdminTokenUnassignBody) => unassignToken(api, serial, body),
    onSuccess: invalidate,
  });
}

export function useRetireToken() {
  const api = useApiClient();
  const invalidate = useInvalidateInventory();
  return useMutation({
    mutationFn: ({ serial, ...body }: { serial: string } & AdminActionBody) => retireToken(api, serial, body),
    onSuccess: invalidate,
  });
}
