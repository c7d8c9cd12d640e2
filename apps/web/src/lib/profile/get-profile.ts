import { useEffect } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMsal } from '@azure/msal-react';
import type { IPublicClientApplication } from '@azure/msal-browser';
import type { UserInfoResponse } from '@mfa-portal/shared';
import { hasMfaData, useMfaData, useSettings, useUser } from '../../shell/contexts';
import { claimsFromAccount, fetchUserInfo } from '../../shell/user-info';
import { acquireApiToken } from '../api/api-client';
import { ApiError } from '../api/api-error';
import { meKeys } from '../api/query-keys';

/**
 * GET /account/getuserinfo again (the shell's call, same parameters and headers) to refresh the
 * user's MFA summary after a change: status, devices and bypass-code count shown across the app.
 */
export async function getProfile(instance: IPublicClientApplication, scope: string, signal?: AbortSignal): Promise<UserInfoResponse> {
  const account = instance.getActiveAccount() ?? instance.getAllAccounts()[0];
  if (!account) throw new ApiError(401, 'client.sign_in_required', 'Nobody is signed in.');
  const accessToken = await acquireApiToken(instance, scope);
  const result = await fetchUserInfo({ accessToken, claims: claimsFromAccount(account), fallbackUserId: account.username, signal });
  switch (result.kind) {
    case 'ok':
      return result.data;
    case 'unauthorized':
      throw new ApiError(401, 'auth.token_invalid', 'The profile call answered 401.');
    case 'aborted':
      throw new DOMException('Aborted', 'AbortError');
    case 'failed':
      throw new ApiError(500, 'server.internal', result.error);
  }
}

export function profileQueryOptions(instance: IPublicClientApplication, scope: string) {
  return queryOptions({
    queryKey: meKeys.profile(),
    queryFn: ({ signal }) => getProfile(instance, scope, signal),
  });
}

/**
 * The profile, starting from the one the shell loaded (no second call on start-up); refetched when a
 * change invalidates `me` queries. Each new answer is written to MfaDataContext, so everything that
 * reads the context (the shell's and ours) sees the change.
 */
export function useProfile() {
  const { instance } = useMsal();
  const { apiInfo } = useSettings();
  const { user } = useUser();
  const { mfaData, setMfaData } = useMfaData();
  const initial = user && hasMfaData(mfaData) ? { user, mfa: mfaData } : undefined;
  const query = useQuery({
    ...profileQueryOptions(instance, apiInfo.scope),
    ...(initial ? { initialData: initial, initialDataUpdatedAt: () => Date.now() } : {}),
  });
  const latest = query.data?.mfa;
  useEffect(() => {
    if (latest) setMfaData((current) => (current === latest ? current : latest));
  }, [latest, setMfaData]);
  return query;
}
