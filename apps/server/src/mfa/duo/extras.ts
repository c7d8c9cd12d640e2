import type { Device } from '@mfa-portal/shared';
import type { MfaProvider, PhoneActivation, PushOptions, PushState, StartedPush } from '../port.js';
import type { DuoAdminApi } from './admin-api.js';
import type { DuoAuthApi } from './auth-api.js';

/** Duo's phone and push operations with their Duo-specific options (the port's methods call these). */
export interface DuoExtras {
  /** Adds a phone (E.164 number, platform) and associates it with the user; refuses (`has_devices`) a second device without step-up. */
  addPhone(
    username: string,
    input: { number: string; platform: string; name?: string; type?: 'mobile' | 'landline' },
    opts: { allowWhenDevicesExist: boolean },
  ): Promise<Device>;
  /** A Duo Mobile activation link and QR code for one of the user's phones. */
  phoneActivation(
    username: string,
    deviceId: string,
    opts?: { validSeconds?: number; install?: boolean; now?: Date },
  ): Promise<PhoneActivation>;
  /** Sends the activation link to the phone by SMS. */
  sendSmsActivation(
    username: string,
    deviceId: string,
    opts?: { validSeconds?: number; install?: boolean; now?: Date },
  ): Promise<{ expiresAt: Date }>;
  /** A push to one of the user's phones (Auth API, asynchronous); poll with `pushStatus`. */
  startPush(username: string, deviceId: string, opts: PushOptions): Promise<StartedPush>;
  pushStatus(txid: string): Promise<PushState>;
  /** Helpdesk identity check: a verification push to the user's phone, with the code it shows. */
  sendVerificationPush(username: string, deviceId: string): Promise<{ pushId: string; confirmationCode: string }>;
  verificationPushResponse(username: string, pushId: string): Promise<PushState>;
}

export interface DuoMfaProvider extends MfaProvider {
  readonly name: 'duo';
  readonly duo: DuoExtras;
}

export interface DuoProviderDeps {
  admin: DuoAdminApi;
  auth: DuoAuthApi;
  /** The adapter's clock (tests); default the system clock. */
  now?: () => Date;
  /** How long a push lives, from its start (default: the portal's push time-out). */
  pushLifetimeSeconds?: number;
  /** How much longer than that a status request may wait (default PUSH_STATUS_MARGIN_MS). */
  pushStatusMarginMs?: number;
}
