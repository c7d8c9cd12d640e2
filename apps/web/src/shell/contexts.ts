import { createContext, useContext, type Dispatch, type SetStateAction } from 'react';
import type { MfaData, PortalUser } from '@mfa-portal/shared';
import type { Settings } from './settings';

/** MFA data starts as an empty object and becomes the server's `mfa` once the profile is loaded. */
export type MfaDataState = MfaData | Record<string, never>;

export interface UserContextValue {
  user: PortalUser | undefined;
  mfaData: MfaDataState;
}
export const UserContext = createContext<UserContextValue>({ user: undefined, mfaData: {} });

/** The API access token, in memory only (never written to storage by the portal). */
export const AccessTokenContext = createContext<string | undefined>(undefined);

export interface MfaDataContextValue {
  mfaData: MfaDataState;
  setMfaData: Dispatch<SetStateAction<MfaDataState>>;
}
export const MfaDataContext = createContext<MfaDataContextValue>({ mfaData: {}, setMfaData: () => undefined });

export const SettingsContext = createContext<Settings | null>(null);

export const useUser = () => useContext(UserContext);
export const useAccessToken = () => useContext(AccessTokenContext);
export const useMfaData = () => useContext(MfaDataContext);

/** Settings are loaded before anything renders, so inside the app they always exist. */
export function useSettings(): Settings {
  const settings = useContext(SettingsContext);
  if (!settings) throw new Error('useSettings() used outside SettingsContext');
  return settings;
}

/** True when the MFA data holds the server's answer (not the initial empty object). */
export function hasMfaData(data: MfaDataState): data is MfaData {
  return 'status' in data;
}
