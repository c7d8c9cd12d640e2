import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { enrolmentPolicyResponseSchema, type EnrolmentPolicyResponse } from '@mfa-portal/shared';
import { useApiClient, type ApiClient } from '../../../lib/api/api-client';

const POLICY_PATH = '/api/me/enrolment-policy';
const REDEEM_PATH = '/api/me/enrolment-pass';
const policyKey = ['me', 'enrolment-policy'] as const;

/** GET /api/me/enrolment-policy: whether adding a first device needs an enrolment pass now. */
export function getEnrolmentPolicy(api: ApiClient, signal?: AbortSignal): Promise<EnrolmentPolicyResponse> {
  return api.request(POLICY_PATH, { signal, schema: enrolmentPolicyResponseSchema });
}

export function useEnrolmentPolicy() {
  const api = useApiClient();
  return useQuery({ queryKey: policyKey, queryFn: ({ signal }) => getEnrolmentPolicy(api, signal) });
}

/** POST /api/me/enrolment-pass: redeems a pass the service desk gave; opens the add-device flow for a while. */
export function redeemEnrolmentPass(api: ApiClient, pass: string): Promise<EnrolmentPolicyResponse> {
  return api.request(REDEEM_PATH, { method: 'POST', body: { pass }, schema: enrolmentPolicyResponseSchema });
}

export function useRedeemEnrolmentPass() {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (pass: string) => redeemEnrolmentPass(api, pass),
    onSuccess: (policy) => client.setQueryData(policyKey, policy),
  });
}
