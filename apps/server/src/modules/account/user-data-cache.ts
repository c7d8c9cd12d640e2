import type { MfaData } from '@mfa-portal/shared';

/** How long the signed-in user's MFA data is kept at most (the change feed drops it at once when it changes). */
export const USER_DATA_CACHE_TTL_MS = 60_000;

/**
 * How long one user's MFA data may be kept. Nothing in it changes by itself but two things
 * time ends: a lockout (not kept at all: rare, and its end is not in the data) and the next bypass code's
 * expiry (kept until then). An account not provisioned yet is not kept either: its first sign-in may
 * provision it.
 */
export function userDataTtlMs(data: MfaData, now: number): number {
  if (data.status === 'not_provisioned' || data.status === 'locked_out') return 0;
  const next = data.bypassCodes.nextExpiresAt === null ? Infinity : Date.parse(data.bypassCodes.nextExpiresAt) - now;
  return Math.min(USER_DATA_CACHE_TTL_MS, next);
}
