import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { MfaKeys } from '../mfa-keys.js';
import { MfaError, type MfaProvider } from '../port.js';
import { builtinAccountLifecycle } from './account-lifecycle.js';
import { builtinBypassCodes } from './builtin-bypass-codes.js';
import { builtinContext } from './builtin-context.js';
import { builtinDevices } from './builtin-devices.js';
import { assertUsable, BUILTIN_CAPABILITIES, BUILTIN_NO_PHONE_CHANNEL, toDevice } from './builtin-mapping.js';
import { builtinTotpEnrolment } from './builtin-totp-enrolment.js';
import { builtinUsers } from './builtin-users.js';
import { builtinWebauthn } from './builtin-webauthn.js';
import { DEFAULT_LOCKOUT_POLICY, type LockoutPolicy } from './lockout.js';
import { verifyBuiltinPasscode } from './verify-passcode.js';

export {
  BUILTIN_CAPABILITIES,
  BUILTIN_NO_PHONE_CHANNEL,
  deviceSecretAad,
  enrolmentSecretAad,
  LOCKOUT_STATUS_REASON,
  MAX_PENDING_ENROLMENTS,
  RESYNC_LOOK_AHEAD,
  toDevice,
  tokenSeedAad,
} from './builtin-mapping.js';

/**
 * The builtin MFA provider: the portal's own store (PostgreSQL/PGlite) of authenticator apps and
 * Duo D100 hardware tokens, bypass codes and lockouts. Secrets are sealed at rest (secret box);
 * bypass codes are kept as peppered hashes. Its parts: accounts (builtin-users.ts), devices
 * (builtin-devices.ts), TOTP enrolment (builtin-totp-enrolment.ts), bypass codes
 * (builtin-bypass-codes.ts), passkeys (builtin-webauthn.ts), the code check (verify-passcode.ts) and
 * the account lifecycle (account-lifecycle.ts).
 */
export interface BuiltinProviderOptions {
  keys: Pick<MfaKeys, 'box' | 'bypassPepper'>;
  lockout?: LockoutPolicy;
}

export function createBuiltinProvider(db: Kysely<Database>, options: BuiltinProviderOptions): MfaProvider {
  const ctx = builtinContext(db, options.keys);
  const policy = options.lockout ?? DEFAULT_LOCKOUT_POLICY;

  /** The builtin provider has no phone channel (no SMS gateway, no push service): it refuses, never imitates. */
  const noPhoneChannel = async (): Promise<never> => {
    throw new MfaError('not_supported', { reason: BUILTIN_NO_PHONE_CHANNEL });
  };

  return {
    name: 'builtin',
    capabilities: BUILTIN_CAPABILITIES,
    lifecycle: builtinAccountLifecycle(db),

    addPhone: noPhoneChannel,
    phoneActivation: noPhoneChannel,
    sendSmsActivation: noPhoneChannel,
    startPush: noPhoneChannel,
    pushStatus: noPhoneChannel,
    sendVerificationPush: noPhoneChannel,
    verificationPushResponse: noPhoneChannel,

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
