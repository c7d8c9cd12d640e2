import type { MfaData } from '@mfa-portal/shared';

/**
 * The port every MFA provider adapter implements (builtin store, Duo). Routes and services speak
 * only to this interface; the adapter is chosen by configuration (MFA_PROVIDER).
 */
export interface MfaProvider {
  readonly name: MfaData['provider'];
  /** The user's status, devices and bypass-code summary; status 'not_provisioned' when unknown. */
  getUserData(username: string, now?: Date): Promise<MfaData>;
}
