import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  factorPolicyGlobalSchema,
  factorPolicyOverrideSchema,
  factorPolicyPreviewSchema,
  factorPolicyResponseSchema,
  type FactorPolicyPreview,
  type FactorPolicyPreviewBody,
  type FactorPolicyRuleInput,
} from '@mfa-portal/shared';
import { useApiClient } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/**
 * The factor policy (Solution Administrators): the global policy and the directory groups' overrides,
 * saving them (checked, refused with the people a change would leave without a factor, audited by the
 * server), and the preview of a change before it is saved.
 */

/** Where a policy applies: the organisation, or one directory group. */
export type PolicyScope = { kind: 'global' } | { kind: 'group'; groupId: string };

/** GET /api/admin/factor-policy. */
export function useFactorPolicyAdmin() {
  const api = useApiClient();
  return useQuery({
    queryKey: adminKeys.factorPolicy,
    queryFn: ({ signal }) => api.request(ADMIN_API.factorPolicy, { signal, schema: factorPolicyResponseSchema }),
  });
}

/**
 * Saves a policy: PUT …/global, POST …/groups (a group without one yet: `create`) or PUT …/groups/:id.
 * The policy is read again afterwards (the groups' member counts come with it).
 */
export function useSaveFactorPolicy() {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ scope, rule, create }: { scope: PolicyScope; rule: FactorPolicyRuleInput; create?: boolean }) =>
      scope.kind === 'global'
        ? api.request(ADMIN_API.factorPolicyGlobal, { method: 'PUT', body: rule, schema: factorPolicyGlobalSchema })
        : create
          ? api.request(ADMIN_API.factorPolicyGroups, {
              method: 'POST',
              body: { ...rule, groupId: scope.groupId },
              schema: factorPolicyOverrideSchema,
            })
          : api.request(ADMIN_API.factorPolicyGroup(scope.groupId), { method: 'PUT', body: rule, schema: factorPolicyOverrideSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.factorPolicy }),
  });
}

/** DELETE /api/admin/factor-policy/groups/:groupId: the group's members go back to the global policy. */
export function useRemoveGroupPolicy() {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (groupId: string) =>
      api.request(ADMIN_API.factorPolicyGroup(groupId), { method: 'DELETE', schema: factorPolicyOverrideSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.factorPolicy }),
  });
}

/** POST /api/admin/factor-policy/preview: what a change would do, stored nowhere. */
export function usePreviewFactorPolicy() {
  const api = useApiClient();
  return useMutation({
    mutationFn: (body: FactorPolicyPreviewBody): Promise<FactorPolicyPreview> =>
      api.request(ADMIN_API.factorPolicyPreview, { method: 'POST', body, schema: factorPolicyPreviewSchema }),
  });
}
