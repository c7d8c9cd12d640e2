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
    /**
     * Whether the user may authenticate, and with which devices. `ipaddr`: where the person is, so that
     * Duo's network and location policies apply. `verifiedPush`: the portal can show Duo's verification
     * code (`client_supports_verified_push=1`), so Duo may answer a `txid` for a verified push.
     */
    preauth: (userId: string, opts: { ipaddr?: string | null; verifiedPush?: boolean } = {}) =>
      client.request<DuoPreauth>('POST', '/auth/v2/preauth', {
        params: {
          user_id: userId,
          ipaddr: opts.ipaddr ?? undefined,
          client_supports_verified_push: opts.verifiedPush ? 1 : undefined,
        },
      }),
    /** Checks a passcode (Duo Mobile, hardware token, SMS or bypass code), synchronously. */
    passcode: (userId: string, passcode: string, opts: { ipaddr?: string | null } = {}) =>
      client.request<DuoAuthResult>('POST', '/auth/v2/auth', {
        params: { user_id: userId, factor: 'passcode', passcode, ipaddr: opts.ipaddr ?? undefined },
      }),
    /**
     * Sends a push to one device and answers at once with a transaction id (`async=1`). `txid`: the
     * preauth's, for a verified push. `type`, `display_username` and `pushinfo` are what Duo Mobile
     * shows (the action, the name, key/value lines), so a check reads differently from a step-up.
     */
    push: (
      userId: string,
      device: string,
      opts: { txid?: string; ipaddr?: string | null; type?: string; displayUsername?: string; pushinfo?: string } = {},
    ) =>
      client.request<DuoAuthAsync>('POST', '/auth/v2/auth', {
        params: {
          user_id: userId,
          factor: 'push',
          device,
          async: 1,
          txid: opts.txid,
          ipaddr: opts.ipaddr ?? undefined,
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
