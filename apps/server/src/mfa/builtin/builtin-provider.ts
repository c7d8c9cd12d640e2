import { AUTHENTICATOR_ACTIVATION_MINUTES, PUSH_TIMEOUT_SECONDS } from '@mfa-portal/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { MfaKeys } from '../mfa-keys.js';
import { MfaError, type MfaProvider } from '../port.js';
import { builtinAccountLifecycle } from './account-lifecycle.js';
import { builtinBypassCodes } from './builtin-bypass-codes.js';
import { builtinContext } from './builtin-context.js';
import { builtinDevices } from './builtin-devices.js';
import { builtinAuthenticator } from './builtin-authenticator.js';
import { assertUsable, BUILTIN_CAPABILITIES, BUILTIN_NO_PHONE_NUMBERS, toDevice } from './builtin-mapping.js';
import { builtinPush } from './builtin-push.js';
import { builtinTotpEnrolment } from './builtin-totp-enrolment.js';
import { builtinUsers } from './builtin-users.js';
import { builtinWebauthn } from './builtin-webauthn.js';
import { DEFAULT_LOCKOUT_POLICY, type LockoutPolicy } from './lockout.js';
import { verifyBuiltinPasscode } from './verify-passcode.js';
import { createWebPushDelivery, type PushDeliveryResult } from './web-push-delivery.js';

export {
  BUILTIN_CAPABILITIES,
  BUILTIN_NO_PHONE_NUMBERS,
  BUILTIN_PUSH_NEEDS_APP,
  deviceSecretAad,
  enrolmentSecretAad,
  LOCKOUT_STATUS_REASON,
  MAX_PENDING_ENROLMENTS,
  RESYNC_LOOK_AHEAD,
  toDevice,
  tokenSeedAad,
} from './builtin-mapping.js';
export type { PushDeliveryResult } from './web-push-delivery.js';

/**
 * The builtin MFA provider: the portal's own store (PostgreSQL/PGlite) of authenticator apps, Duo
 * D100 hardware tokens, passkeys and phones activated in the portal's own authenticator app (push with
 * number matching), bypass codes and lockouts. Secrets are sealed at rest (secret box); bypass codes
 * are kept as peppered hashes. Its parts: accounts (builtin-users.ts), devices (builtin-devices.ts),
 * TOTP enrolment (builtin-totp-enrolment.ts), bypass codes (builtin-bypass-codes.ts), passkeys
 * (builtin-webauthn.ts), the code check (verify-passcode.ts), the account lifecycle
 * (account-lifecycle.ts), pushes (builtin-push.ts), the app's side (builtin-authenticator.ts) and Web
 * Push (web-push-delivery.ts).
 */
export interface BuiltinProviderOptions {
  keys: Pick<MfaKeys, 'box' | 'bypassPepper'>;
  lockout?: LockoutPolicy;
  /** How long an activation link of the app lasts (default AUTHENTICATOR_ACTIVATION_MINUTES). */
  activationMinutes?: number;
  /** How long a push waits for its answer (default PUSH_TIMEOUT_SECONDS). */
  pushTimeoutSeconds?: number;
  /** Web Push to the app; absent or `enabled: false`: none (the app fetches its requests itself). */
  webPush?: {
    enabled: boolean;
    vapidKeys: { publicKey: string; privateKey: string } | null;
    subject: string;
    /** Plain-http push endpoints (a local stand-in in tests); never in production. */
    allowHttpEndpoints?: boolean;
    timeoutMs?: number;
  };
  /** Each Web Push attempt, delivered or not (metrics, logs): a failure never fails the push. */
  onPushDelivery?: (result: PushDeliveryResult) => void;
}

export function createBuiltinProvider(db: Kysely<Database>, options: BuiltinProviderOptions): MfaProvider {
  const ctx = builtinContext(db, options.keys);
  const policy = options.lockout ?? DEFAULT_LOCKOUT_POLICY;
  const pushTimeoutSeconds = options.pushTimeoutSeconds ?? PUSH_TIMEOUT_SECONDS;
  const delivery = options.webPush?.enabled
    ? createWebPushDelivery(db, options.keys.box, {
        ...options.webPush,
        ttlSeconds: pushTimeoutSeconds,
        ...(options.onPushDelivery ? { onDelivery: options.onPushDelivery } : {}),
      })
    : null;

  /** Phones by number and text messages the builtin provider has not: it refuses, never imitates. */
  const noPhoneNumbers = async (): Promise<never> => {
    throw new MfaError('not_supported', { reason: BUILTIN_NO_PHONE_NUMBERS });
  };

  return {
    name: 'builtin',
    capabilities: BUILTIN_CAPABILITIES,
    lifecycle: builtinAccountLifecycle(db),
    authenticatorApp: builtinAuthenticator(ctx, {
      activationMinutes: options.activationMinutes ?? AUTHENTICATOR_ACTIVATION_MINUTES,
      policy,
      delivery,
    }),

    addPhone: noPhoneNumbers,
    phoneActivation: noPhoneNumbers,
    sendSmsActivation: noPhoneNumbers,
    ...builtinPush(ctx, { pushTimeoutSeconds, delivery }),

    ...builtinWebauthn(db, { toDevice, assertUsable }),
    ...builtinUsers(ctx),
    ...builtinDevices(ctx),
    ...builtinTotpEnrolment(ctx),
    ...builtinBypassCodes(ctx),

    verifyPasscode(username, code, opts = {}) {
      return verifyBuiltinPasscode(db, { keys: options.keys, policy }, username, code, opts);
    },
  };
}
