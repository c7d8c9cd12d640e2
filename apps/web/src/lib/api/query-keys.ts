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
};
