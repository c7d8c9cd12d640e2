import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error';

/** How often a failed read is tried again: network failures and 5xx only, never a 4xx. */
export const QUERY_MAX_RETRIES = 2;
/** Lists stay fresh this long before a revisit refetches them in the background. */
export const QUERY_STALE_MS = 30_000;

export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= QUERY_MAX_RETRIES) return false;
  if (!isApiError(error)) return false;
  return error.status === 0 || error.status >= 500;
}

/** One QueryClient per main application. Mutations are never retried (they are not all idempotent). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: QUERY_STALE_MS, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
