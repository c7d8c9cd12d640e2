import type {
  ActivateBody,
  Device,
  DevicePublicKey,
  PendingPushRequest,
  PushAnswerBody,
  PushRequestKind,
  PushSubscriptionJson,
} from '@mfa-portal/shared';

/**
 * The app's side of the builtin provider's phones. A phone activated here is a `phone` device with
 * `app: 'portal_authenticator'`, capabilities push and passcode; its pushes go through the same
 * {@link MfaProvider.startPush} / {@link MfaProvider.sendVerificationPush} as any other and show a
 * two-digit number that the person types in the app.
 */
export interface AuthenticatorApp {
  /**
   * A fresh single-use activation token for the user, valid for the configured minutes. The first-device
   * rule is decided now: with `allowWhenDevicesExist: false` it refuses (`has_devices`) when the user has
   * a device, and the activation itself refuses the same when one was added meanwhile.
   */
  startActivation(
    username: string,
    opts: { allowWhenDevicesExist: boolean; now?: Date },
  ): Promise<{ activationId: string; token: string; expiresAt: Date }>;
  /** Whether the app used the activation yet (`activated`, with the device), or it ran out. Another user's id is `activation_invalid`. */
  activationState(
    username: string,
    activationId: string,
    opts?: { now?: Date },
  ): Promise<{ state: 'waiting' | 'activated' | 'expired'; expiresAt: Date; device: Device | null }>;
  /**
   * Uses an activation token: registers the device's public key, platform, name and Web Push
   * subscription, and gives the passcode seed. Refuses `activation_invalid` (unknown token),
   * `activation_used` (a second time), `activation_expired`, `has_devices` (see startActivation),
   * `user_disabled`.
   */
  activate(input: ActivateBody, opts?: { now?: Date }): Promise<{ username: string; device: Device; passcodeSecret: string }>;
  /**
   * Whose link this token is (the user name), without using it; null for an unknown token. The portal
   * asks its own rules (the person's factor policy now) before the link is used.
   */
  activationOwner(token: string): Promise<string | null>;
  /** The public key and owner of an activated device; null when there is none (removed, or never). */
  deviceKey(deviceId: string): Promise<{ username: string; deviceId: string; publicKey: DevicePublicKey } | null>;
  /** Sets or clears the device's Web Push subscription. */
  setPushSubscription(deviceId: string, subscription: PushSubscriptionJson | null): Promise<void>;
  /** The device's pushes still waiting for an answer (not expired), oldest first. */
  pendingRequests(deviceId: string, opts?: { now?: Date }): Promise<PendingPushRequest[]>;
  /**
   * Answers a push from the device that received it. Checks, before anything is written: the request
   * is this device's (else `push_not_found`), the signature by the device key over the answer
   * (`push_signature_invalid`), the answer names this request, still waiting (`push_already_answered`),
   * not expired (`push_expired`), the time close to now; an approval's number (`push_number_mismatch`:
   * the request is then refused and the failure counts towards the lockout like a wrong passcode).
   */
  answer(
    deviceId: string,
    body: PushAnswerBody,
    opts?: { now?: Date },
  ): Promise<{ username: string; state: 'approved' | 'denied'; kind: PushRequestKind; justLocked: boolean }>;
  /** A request this device answered, for a report ("This wasn't me"); null when there is none. */
  answeredRequest(
    deviceId: string,
    requestId: string,
  ): Promise<{ username: string; kind: PushRequestKind; state: 'approved' | 'denied' | 'fraud'; answeredAt: Date } | null>;
  /** Marks a denied request as reported ("This wasn't me"): `fraud`. False when it was not a denial or already reported. */
  markFraud(deviceId: string, requestId: string): Promise<boolean>;
  /** The VAPID public key (base64url) browsers subscribe with; null when Web Push is off. */
  vapidPublicKey(): Promise<string | null>;
}
