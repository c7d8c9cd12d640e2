import type { DuoClient } from './client.js';
import type { DuoAuthAsync, DuoAuthResult, DuoAuthStatus, DuoPreauth } from './types.js';

/**
 * The Duo Auth API v2 endpoints the portal uses, typed. Users are named by their Duo `user_id` (from
 * the Admin API), never by username: the Auth API normalises usernames by its own policy (it may strip
 * a domain), so the id is the one unambiguous name.
 */

export type DuoAuthApi = ReturnType<typeof duoAuthApi>;

export function duoAuthApi(client: DuoClient) {
  return {
    /** Whether the user may authenticate, and with which devices. */
    preauth: (userId: string) => client.request<DuoPreauth>('POST', '/auth/v2/preauth', { params: { user_id: userId } }),
    /** Checks a passcode (Duo Mobile, hardware token, SMS or bypass code), synchronously. */
    passcode: (userId: string, passcode: string) =>
      client.request<DuoAuthResult>('POST', '/auth/v2/auth', { params: { user_id: userId, factor: 'passcode', passcode } }),
    /** Sends a push to one device and answers at once with a transaction id (`async=1`). */
    push: (userId: string, device: string, opts: { type?: string; displayUsername?: string; pushinfo?: string } = {}) =>
      client.request<DuoAuthAsync>('POST', '/auth/v2/auth', {
        params: {
          user_id: userId,
          factor: 'push',
          device,
          async: 1,
          type: opts.type,
          display_username: opts.displayUsername,
          pushinfo: opts.pushinfo,
        },
      }),
    /**
     * The state of an asynchronous authentication. Duo holds this request until the state changes (the
     * user answers, or the push expires): a long-poll, so it is given up to `waitMs` and never retried.
     */
    status: (txid: string, opts: { waitMs: number }) =>
      client.request<DuoAuthStatus>('GET', '/auth/v2/auth_status', { params: { txid }, longPoll: { timeoutMs: opts.waitMs } }),
  };
}
