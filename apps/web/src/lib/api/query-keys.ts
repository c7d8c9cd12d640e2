/**
 * TanStack Query keys. Everything about the signed-in user starts with `me`, so one invalidation of
 * `meKeys.all` after a change refreshes the devices, the bypass codes, the activity and the profile.
 */
export const meKeys = {
  all: ['me'] as const,
  profile: () => ['me', 'profile'] as const,
  devices: () => ['me', 'devices'] as const,
  bypassCodes: () => ['me', 'bypass-codes'] as const,
  activity: (pageSize: number) => ['me', 'activity', pageSize] as const,
  /** What the MFA provider can do: fixed for the server's lifetime. */
  capabilities: () => ['me', 'capabilities'] as const,
  /** The default sign-in method: under `me`, so a removed device refreshes it. */
  defaultMethod: () => ['me', 'default-method'] as const,
  /** What the person's factor policy lets them add and use: under `me`, so adding or removing a device refreshes it. */
  factorPolicy: () => ['me', 'factor-policy'] as const,
  /** The enrolment campaign banner: under `me`, so adding a device refreshes it (and it goes away). */
  campaign: () => ['me', 'campaign'] as const,
  phoneActivation: (deviceId: string) => ['me', 'phone-activation', deviceId] as const,
};

/** Pushes being polled: outside `me`, so refreshing the user's data does not poll them again. */
export const pushKeys = {
  test: (deviceId: string, txid: string) => ['push', 'test', deviceId, txid] as const,
  stepUp: (txid: string) => ['push', 'step-up', txid] as const,
};

/** An activation of the portal's authenticator app being watched: outside `me` for the same reason. */
export const activationKeys = {
  authenticatorApp: (activationId: string) => ['authenticator-activation', activationId] as const,
};
