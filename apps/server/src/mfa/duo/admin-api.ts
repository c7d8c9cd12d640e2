import { MAX_BYPASS_VALIDITY_SECONDS } from '@mfa-portal/shared';
import { BACKGROUND_RETRY, type DuoClient } from './client.js';
import type {
  DuoActivation,
  DuoBypassCode,
  DuoPhone,
  DuoSmsActivation,
  DuoToken,
  DuoUser,
  DuoVerificationPush,
  DuoVerificationPushResponse,
  DuoWebauthnCredential,
} from './types.js';

/**
 * The Duo Admin API v1 endpoints the portal uses, typed. Each wrapper is one documented call; lists
 * are read to their end (DuoClient.getAll). Path parameters are Duo ids, percent-encoded all the same.
 */

/** Duo's bounds on bypass codes, and the portal's (never "forever", never unlimited uses). */
export const DUO_MAX_BYPASS_COUNT = 10;
export const DUO_MAX_BYPASS_VALID_SECS = MAX_BYPASS_VALIDITY_SECONDS;

const id = (value: string) => encodeURIComponent(value);

export interface CreateBypassCodesParams {
  count: number;
  validSecs: number;
  reuseCount: number;
  preserveExisting: boolean;
}

export type DuoAdminApi = ReturnType<typeof duoAdminApi>;

export function duoAdminApi(client: DuoClient) {
  return {
    /** `GET /admin/v1/users?username=`: the user with that username or alias, or null. */
    async findUserByUsername(username: string): Promise<DuoUser | null> {
      const users = await client.request<DuoUser[]>('GET', '/admin/v1/users', { params: { username } });
      return Array.isArray(users) ? (users[0] ?? null) : null;
    },
    /** `GET /admin/v1/users`: every user, every page (`limit`/`offset`, `next_offset` followed to the end). */
    listUsers: () => client.getAll<DuoUser>('/admin/v1/users'),
    /**
     * The same list a page at a time (the directory sync), `beforePage` awaited before each call. Nobody
     * waits on it, so a throttled page is waited for as long as Duo's own clients would.
     */
    eachUserPage: (onPage: (users: DuoUser[]) => Promise<void>, beforePage: () => Promise<void>) =>
      client.forEachPage<DuoUser>('/admin/v1/users', onPage, {}, { beforePage, retry: BACKGROUND_RETRY }),
    /**
     * Modify User, `POST /admin/v1/users/{user_id}` (form parameters): here only `status`, which Duo
     * accepts as `active`, `bypass` or `disabled`; `active` ends a lockout. Answers the user as modified.
     */
    setUserStatus: (userId: string, status: 'active' | 'bypass' | 'disabled') =>
      client.request<DuoUser>('POST', `/admin/v1/users/${id(userId)}`, { params: { status } }),
    /**
     * Create User, `POST /admin/v1/users` (form parameters; `username` required, unique among
     * usernames and aliases: Duo answers 400 otherwise). Answers the new user.
     */
    createUser: (input: { username: string; realname: string; email: string; status: 'active' | 'disabled' }) =>
      client.request<DuoUser>('POST', '/admin/v1/users', {
        params: { username: input.username, realname: input.realname, email: input.email, status: input.status },
      }),
    /** Modify User with the profile fields given (username, realname, email); answers the user as modified. */
    updateUser: (userId: string, changes: { username?: string; realname?: string; email?: string }) =>
      client.request<DuoUser>('POST', `/admin/v1/users/${id(userId)}`, { params: changes }),
    /** Delete User, `DELETE /admin/v1/users/{user_id}`: at once and for good (not Duo's Trash); phones stay. */
    deleteUser: (userId: string) => client.request<string>('DELETE', `/admin/v1/users/${id(userId)}`),

    // --- phones ---
    listUserPhones: (userId: string) => client.getAll<DuoPhone>(`/admin/v1/users/${id(userId)}/phones`),
    /**
     * `GET /admin/v1/phones?number=`: the phone Duo holds with that number, with its users. Duo keeps
     * one phone per number (Create Phone refuses another: 40003), so its clients look it up first.
     */
    findPhonesByNumber: (number: string) => client.getAll<DuoPhone>('/admin/v1/phones', { number }),
    createPhone: (input: { number: string; name: string; type: 'mobile' | 'landline'; platform: string }) =>
      client.request<DuoPhone>('POST', '/admin/v1/phones', {
        params: { number: input.number, name: input.name, type: input.type, platform: input.platform },
      }),
    associatePhone: (userId: string, phoneId: string) =>
      client.request<string>('POST', `/admin/v1/users/${id(userId)}/phones`, { params: { phone_id: phoneId } }),
    disassociatePhone: (userId: string, phoneId: string) =>
      client.request<string>('DELETE', `/admin/v1/users/${id(userId)}/phones/${id(phoneId)}`),
    /** `GET /admin/v1/phones/{id}`: the phone with every user it is associated with. */
    getPhone: (phoneId: string) => client.request<DuoPhone>('GET', `/admin/v1/phones/${id(phoneId)}`),
    renamePhone: (phoneId: string, name: string) =>
      client.request<DuoPhone>('POST', `/admin/v1/phones/${id(phoneId)}`, { params: { name } }),
    deletePhone: (phoneId: string) => client.request<string>('DELETE', `/admin/v1/phones/${id(phoneId)}`),
    /** Activation link and QR code for Duo Mobile (`install=1` adds the install link). */
    createActivationUrl: (phoneId: string, opts: { validSecs: number; install: boolean }) =>
      client.request<DuoActivation>('POST', `/admin/v1/phones/${id(phoneId)}/activation_url`, {
        params: { valid_secs: opts.validSecs, install: opts.install ? 1 : 0 },
      }),
    sendSmsActivation: (phoneId: string, opts: { validSecs: number; install: boolean }) =>
      client.request<DuoSmsActivation>('POST', `/admin/v1/phones/${id(phoneId)}/send_sms_activation`, {
        params: { valid_secs: opts.validSecs, install: opts.install ? 1 : 0 },
      }),

    // --- hardware tokens ---
    listUserTokens: (userId: string) => client.getAll<DuoToken>(`/admin/v1/users/${id(userId)}/tokens`),
    /** `GET /admin/v1/tokens?type=&serial=`: the token(s) of that type and serial. */
    findTokens: (type: string, serial: string) => client.getAll<DuoToken>('/admin/v1/tokens', { type, serial }),
    /** Three consecutive codes of the token; Duo answers 400 when they do not resynchronise it. */
    resyncToken: (tokenId: string, codes: readonly [string, string, string]) =>
      client.request<string>('POST', `/admin/v1/tokens/${id(tokenId)}/resync`, {
        params: { code1: codes[0], code2: codes[1], code3: codes[2] },
      }),
    associateToken: (userId: string, tokenId: string) =>
      client.request<string>('POST', `/admin/v1/users/${id(userId)}/tokens`, { params: { token_id: tokenId } }),
    disassociateToken: (userId: string, tokenId: string) =>
      client.request<string>('DELETE', `/admin/v1/users/${id(userId)}/tokens/${id(tokenId)}`),

    // --- WebAuthn credentials (enrolled in Duo's own prompt; listed and removed here) ---
    listUserWebauthnCredentials: (userId: string) =>
      client.getAll<DuoWebauthnCredential>(`/admin/v1/users/${id(userId)}/webauthncredentials`),
    deleteWebauthnCredential: (webauthnKey: string) => client.request<string>('DELETE', `/admin/v1/webauthncredentials/${id(webauthnKey)}`),

    // --- bypass codes ---
    /**
     * New random codes. The portal's rules are checked again here, whatever the caller did: 1–10
     * codes, a validity of 1 s to 7 days (never 0, Duo's "forever"), a reuse count of at least 1
     * (never 0, Duo's "unlimited"), and `preserve_existing` always sent (Duo's default deletes them).
     */
    async createBypassCodes(userId: string, p: CreateBypassCodesParams): Promise<string[]> {
      if (!Number.isInteger(p.count) || p.count < 1 || p.count > DUO_MAX_BYPASS_COUNT)
        throw new RangeError('bypass code count must be 1 to 10');
      if (!Number.isInteger(p.validSecs) || p.validSecs < 1 || p.validSecs > DUO_MAX_BYPASS_VALID_SECS)
        throw new RangeError('bypass code validity must be 1 s to 7 days');
      if (!Number.isInteger(p.reuseCount) || p.reuseCount < 1) throw new RangeError('bypass code reuse count must be at least 1');
      return client.request<string[]>('POST', `/admin/v1/users/${id(userId)}/bypass_codes`, {
        params: {
          count: p.count,
          valid_secs: p.validSecs,
          reuse_count: p.reuseCount,
          preserve_existing: p.preserveExisting ? 'true' : 'false',
        },
      });
    },
    listBypassCodes: (userId: string) => client.getAll<DuoBypassCode>(`/admin/v1/users/${id(userId)}/bypass_codes`),
    deleteBypassCode: (bypassCodeId: string) => client.request<string>('DELETE', `/admin/v1/bypass_codes/${id(bypassCodeId)}`),

    // --- helpdesk verification push ---
    sendVerificationPush: (userId: string, phoneId: string) =>
      client.request<DuoVerificationPush>('POST', `/admin/v1/users/${id(userId)}/send_verification_push`, {
        params: { phone_id: phoneId },
      }),
    verificationPushResponse: (userId: string, pushId: string) =>
      client.request<DuoVerificationPushResponse>('GET', `/admin/v1/users/${id(userId)}/verification_push_response`, {
        params: { push_id: pushId },
      }),
  };
}
