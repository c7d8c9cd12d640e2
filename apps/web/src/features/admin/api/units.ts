import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminDirectoryGroupsResponseSchema,
  adminReachSchema,
  adminUnitSchema,
  adminUnitsResponseSchema,
  type AdminUnit,
  type AdminUnitBody,
} from '@mfa-portal/shared';
import { useApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/**
 * Administrative units: the list, create, replace and delete (Solution Administrators), the directory
 * groups a unit may hold, and whom the signed-in administrator can help (every administrator).
 */

/** GET /api/admin/units. */
export function useUnits() {
  const api = useApiClient();
  return useQuery({
    queryKey: adminKeys.units,
    queryFn: ({ signal }) => api.request(ADMIN_API.units, { signal, schema: adminUnitsResponseSchema }),
  });
}

/** GET /api/admin/directory-groups?q=: groups whose name contains `q`. */
export function useDirectoryGroups(q: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: adminKeys.directoryGroups(q),
    queryFn: ({ signal }) => api.request(ADMIN_API.directoryGroups, { query: { q }, signal, schema: adminDirectoryGroupsResponseSchema }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/admin/units (no id) or PUT /api/admin/units/:id: the whole definition, checked and audited by the server. */
export function useSaveUnit() {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: AdminUnitBody }): Promise<AdminUnit> =>
      id
        ? api.request(ADMIN_API.unit(id), { method: 'PUT', body, schema: adminUnitSchema })
        : api.request(ADMIN_API.units, { method: 'POST', body, schema: adminUnitSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.units }),
  });
}

/** DELETE /api/admin/units/:id. */
export function useDeleteUnit() {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request(ADMIN_API.unit(id), { method: 'DELETE', schema: adminUnitSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.units }),
  });
}

/** GET /api/admin/units/mine: everyone, the units named, or nobody yet. */
export function useReach() {
  const api = useApiClient();
  return useQuery({
    queryKey: adminKeys.reach,
    queryFn: ({ signal }) => api.request(ADMIN_API.unitsMine, { signal, schema: adminReachSchema }),
  });
}
