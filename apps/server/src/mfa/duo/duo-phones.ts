import { PUSH_TIMEOUT_SECONDS } from '@mfa-portal/shared';
import { qrCodeSvg } from '../common/otp.js';
import type { Device } from '@mfa-portal/shared';
import { MfaError, type PhoneActivation, type PushOptions, type PushState, type StartedPush } from '../port.js';
import type { DuoProviderDeps } from './duo-deps.js';
import type { DuoLookups } from './duo-lookups.js';
import { DuoApiError } from './errors.js';
import { DUO_ACTIVATION_VALID_SECONDS, E164, PLATFORM_TO_DUO, is404, isLimitReached, phoneToDevice } from './duo-mapping.js';

/** Past a push's lifetime, a status request is still given this long (Duo's own clock may be a little behind). */
export const PUSH_STATUS_MARGIN_MS = 5_000;

/** How long the first status of a verified push (the one that carries its code) is waited for. */
const VERIFICATION_CODE_WAIT_MS = 10_000;

/**
 * What Duo Mobile shows with a push (Auth API /auth: `type` replaces "Login request", `pushinfo` is
 * URL-encoded key/value lines), so a check of the phone reads differently from a step-up.
 */
const PUSH_TEXT: Record<PushOptions['purpose'], { type: string; pushinfo: string }> = {
  device_test: {
    type: 'Check this phone',
    pushinfo: new URLSearchParams({ from: 'MFA self-service portal', action: 'Check that this phone works' }).toString(),
  },
  step_up: {
    type: 'Confirm it is you',
    pushinfo: new URLSearchParams({ from: 'MFA self-service portal', action: 'Confirm it is you before a change' }).toString(),
  },
  sign_in: {
    type: 'Sign in',
    pushinfo: new URLSearchParams({ from: 'MFA self-service portal', action: 'Sign in to the portal' }).toString(),
  },
};

/** The number in a verified push's status text ("Please enter verification code 376 into Duo Mobile..."). */
export function verificationCodeIn(statusMsg: string | null | undefined): string | null {
  return /\b(\d{2,8})\b/.exec(statusMsg ?? '')?.[1] ?? null;
}

/** How long an activation link lives, and whether it also carries Duo Mobile's install link. */
interface ActivationOptions {
  validSeconds?: number;
  install?: boolean;
  now?: Date;
}

/**
 * The phone and push operations of the port, as Duo does them. Duo can also add a landline and set an
 * activation link's lifetime and install link: the port asks for neither, so the defaults apply.
 */
export interface DuoPhones {
  addPhone(
    username: string,
    input: { number: string; platform: string; name?: string; type?: 'mobile' | 'landline' },
    opts: { allowWhenDevicesExist: boolean },
  ): Promise<Device>;
  phoneActivation(username: string, deviceId: string, opts?: ActivationOptions): Promise<PhoneActivation>;
  sendSmsActivation(username: string, deviceId: string, opts?: ActivationOptions): Promise<{ expiresAt: Date }>;
  startPush(username: string, deviceId: string, opts: PushOptions): Promise<StartedPush>;
  pushStatus(username: string, txid: string): Promise<PushState>;
  sendVerificationPush(username: string, deviceId: string): Promise<{ pushId: string; confirmationCode: string }>;
  verificationPushResponse(username: string, pushId: string): Promise<PushState>;
}

/** Duo's phone and push operations (phones, Duo Mobile activation by QR code or SMS, pushes, verification pushes). */
export function duoPhones(deps: DuoProviderDeps, lookups: DuoLookups): DuoPhones {
  const { admin, auth } = deps;
  const { userOrThrow, usableUser, devicesOf, phoneOf, requireAuthPreauth } = lookups;
  const now = deps.now ?? (() => new Date());
  const lifetimeMs = (deps.pushLifetimeSeconds ?? PUSH_TIMEOUT_SECONDS) * 1000;
  const marginMs = deps.pushStatusMarginMs ?? PUSH_STATUS_MARGIN_MS;
  // When each push this instance started ends. A push started elsewhere (another instance, before a
  // restart) is given a whole lifetime: Duo ends it anyway when it expires.
  const pushEnds = new Map<string, number>();
  const forgetEnded = (at: number) => {
    for (const [txid, end] of pushEnds) if (end + marginMs < at) pushEnds.delete(txid);
  };
  /**
   * The code a verified push asks for. Duo gives it as the first status of the transaction ("pushed"),
   * in `status_msg`, the text Duo's documentation says is for display to the user; duo_unix shows that
   * text as it comes ("Please enter verification code 376 into Duo Mobile..."). That first status
   * answers at once, so it is given a short wait; without a code the push still stands (the person sees
   * the request in Duo Mobile), the browser just has no number to show.
   */
  async function verificationCodeOf(txid: string): Promise<string | null> {
    try {
      const s = await auth.status(txid, { waitMs: Math.min(VERIFICATION_CODE_WAIT_MS, lifetimeMs) });
      return verificationCodeIn(s.status_msg);
    } catch (err) {
      if (err instanceof DuoApiError && err.timedOut) return null;
      throw err;
    }
  }

  return {
    async addPhone(username, input, opts) {
      const number = input.number.replace(/[\s().-]/g, '');
      if (!E164.test(number))
        throw new MfaError('invalid_request', { field: 'number', reason: 'must be an international number such as +15555550100' });
      const user = await usableUser(username);
      if (!opts.allowWhenDevicesExist && (await devicesOf(user)).devices.length > 0) throw new MfaError('has_devices');
      const platform = PLATFORM_TO_DUO[input.platform.trim().toLowerCase()] ?? 'generic smartphone';
      // Duo holds one phone per number. One it already has is reused when no one holds it (its user was
      // deleted, Duo kept the phone), never taken from another user.
      const [known] = await admin.findPhonesByNumber(number);
      if (known) {
        const holders = known.users ?? [];
        if (holders.some((u) => u.user_id !== user.user_id)) throw new MfaError('phone_in_use', { field: 'number' });
        if (holders.length > 0) return phoneToDevice(known, user);
        try {
          await admin.associatePhone(user.user_id, known.phone_id);
        } catch (err) {
          if (isLimitReached(err)) throw new MfaError('limit_reached', { reason: 'Duo holds as many phones for this user as it allows' });
          throw err;
        }
        // Duo Mobile on it was activated for its former user: this one activates it again before
        // pushes or passcodes count.
        return { ...phoneToDevice(known, user), capabilities: [] };
      }
      let phone;
      try {
        phone = await admin.createPhone({ number, name: input.name?.trim() ?? '', type: input.type ?? 'mobile', platform });
      } catch (err) {
        // Created meanwhile by someone else.
        if (err instanceof DuoApiError && err.duoCode === 40003) throw new MfaError('phone_in_use', { field: 'number' });
        throw err;
      }
      try {
        await admin.associatePhone(user.user_id, phone.phone_id);
      } catch (err) {
        await admin.deletePhone(phone.phone_id).catch(() => undefined);
        if (isLimitReached(err)) throw new MfaError('limit_reached', { reason: 'Duo holds as many phones for this user as it allows' });
        throw err;
      }
      return phoneToDevice(phone, user);
    },

    async phoneActivation(username, deviceId, opts = {}) {
      const { phone } = await phoneOf(username, deviceId);
      const validSecs = opts.validSeconds ?? DUO_ACTIVATION_VALID_SECONDS;
      const now = opts.now ?? new Date();
      const a = await admin.createActivationUrl(phone.phone_id, { validSecs, install: opts.install ?? false });
      let value: string | null = null;
      try {
        value = new URL(a.activation_barcode).searchParams.get('value');
      } catch {
        value = null;
      }
      return {
        activationUrl: a.activation_url,
        activationBarcodeUrl: a.activation_barcode,
        qrSvg: value ? await qrCodeSvg(value) : null,
        installationUrl: a.installation_url || null,
        expiresAt: new Date(now.getTime() + (a.valid_secs || validSecs) * 1000),
      };
    },

    async sendSmsActivation(username, deviceId, opts = {}) {
      const { phone } = await phoneOf(username, deviceId);
      const validSecs = opts.validSeconds ?? DUO_ACTIVATION_VALID_SECONDS;
      const now = opts.now ?? new Date();
      const a = await admin.sendSmsActivation(phone.phone_id, { validSecs, install: opts.install ?? true });
      return { expiresAt: new Date(now.getTime() + (a.valid_secs || validSecs) * 1000) };
    },

    async startPush(username, deviceId, opts) {
      const { user, phone, device } = await phoneOf(username, deviceId);
      if (!device.capabilities.includes('push'))
        throw new MfaError('verification_unsupported', { reason: 'This phone cannot receive pushes (Duo Mobile is not activated)' });
      const ipaddr = opts.ipaddr || null;
      // Verified Duo Push: the portal can show the code, so it says so; Duo then answers a txid when the
      // user's policy requires a verified push, and that txid goes with the push.
      const pre = await requireAuthPreauth(user, { ipaddr, verifiedPush: true });
      const started = await auth.push(user.user_id, phone.phone_id, {
        txid: pre.txid ?? undefined,
        ipaddr,
        ...PUSH_TEXT[opts.purpose],
        displayUsername: username,
      });
      const at = now().getTime();
      forgetEnded(at);
      pushEnds.set(started.txid, at + lifetimeMs);
      return { txid: started.txid, verificationCode: pre.txid ? await verificationCodeOf(started.txid) : null };
    },

    // Duo's auth_status knows only the txid: the portal's push_transaction table binds each txid to its
    // user before anyone asks, so a poll (every 2 s) costs one Auth API call and no Admin API lookup.
    async pushStatus(_username, txid) {
      // Duo answers auth_status when the push is answered or expires, not before (a long-poll, as Duo's
      // own clients use it: duo_unix "long-poll on txid", with no time-out). It is given as long as the
      // push lives, plus a margin; a time-out then means only that nothing has happened yet.
      const at = now().getTime();
      const waitMs = Math.max(0, (pushEnds.get(txid) ?? at + lifetimeMs) - at) + marginMs;
      let s;
      try {
        s = await auth.status(txid, { waitMs });
      } catch (err) {
        if (err instanceof DuoApiError && err.timedOut) return { state: 'waiting', detail: null };
        throw err;
      }
      if (s.result !== 'waiting') pushEnds.delete(txid);
      if (s.result === 'waiting') return { state: 'waiting', detail: s.status_msg || null };
      if (s.result === 'allow') return { state: 'approved', detail: s.status_msg || null };
      if (s.status === 'fraud') return { state: 'fraud', detail: s.status_msg || null };
      if (s.status === 'timeout') return { state: 'timeout', detail: s.status_msg || null };
      return { state: 'denied', detail: s.status_msg || null };
    },

    async sendVerificationPush(username, deviceId) {
      const { user, phone, device } = await phoneOf(username, deviceId);
      if (!device.capabilities.includes('push'))
        throw new MfaError('verification_unsupported', { reason: 'This phone cannot receive pushes (Duo Mobile is not activated)' });
      const push = await admin.sendVerificationPush(user.user_id, phone.phone_id);
      return { pushId: push.push_id, confirmationCode: push.confirmation_code };
    },

    async verificationPushResponse(username, pushId) {
      const user = await userOrThrow(username);
      let r;
      try {
        r = await admin.verificationPushResponse(user.user_id, pushId);
      } catch (err) {
        // Duo keeps a verification push for 120 s; after that it answers 404: unanswered in time.
        if (is404(err)) return { state: 'timeout', detail: 'expired at Duo' };
        throw err;
      }
      const state: PushState['state'] =
        r.result === 'approve'
          ? 'approved'
          : r.result === 'waiting'
            ? 'waiting'
            : r.result === 'fraud'
              ? 'fraud'
              : r.result === 'deny'
                ? 'denied'
                : 'timeout';
      return { state, detail: r.result };
    },
  };
}
