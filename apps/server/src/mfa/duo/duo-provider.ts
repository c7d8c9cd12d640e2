import fs from 'node:fs';
import type { DuoConfig } from '../../config.js';
import type { MfaProvider } from '../port.js';
import { duoAdminApi } from './admin-api.js';
import { duoAuthApi } from './auth-api.js';
import { DuoClient, type DuoLogger, type DuoRetryEvent } from './client.js';
import { duoBypassCodes } from './duo-bypass-codes.js';
import type { DuoProviderDeps } from './duo-deps.js';
import { duoDevices } from './duo-devices.js';
import { duoAccountLifecycle } from './duo-lifecycle.js';
import { duoLookups } from './duo-lookups.js';
import { DUO_CAPABILITIES, DUO_WEBAUTHN_METHODS } from './duo-mapping.js';
import { duoPhones } from './duo-phones.js';
import { duoUsers } from './duo-users.js';
import { duoVerifyPasscode } from './duo-verify-passcode.js';

export type { PhoneActivation, PushState } from '../port.js';
export type { DuoProviderDeps } from './duo-deps.js';
export {
  D100_TOKEN_TYPE,
  DUO_ACTIVATION_VALID_SECONDS,
  DUO_CANNOT_VERIFY_REASON,
  DUO_CAPABILITIES,
  DUO_LOCKED_OUT_REASON,
  DUO_NEVER_EXPIRES,
  DUO_PENDING_DELETION_REASON,
} from './duo-mapping.js';

/**
 * The Duo adapter of the MfaProvider port (MFA_PROVIDER=duo): the Admin API holds users, phones,
 * hardware tokens and bypass codes; the Auth API checks passcodes and sends pushes. Nothing is stored
 * in the portal's database. docs/duo.md has the full mapping; in short:
 *
 * - Users are looked up by username (or alias) at every call; Duo's status maps to the portal's
 *   (`locked out` → locked_out, `pending deletion` → disabled), absence to not_provisioned (duo-users.ts).
 * - Devices are the user's phones and hardware tokens; their portal ids are derived from Duo's ids
 *   (ids.ts), so an id of another user's device is simply not found among this user's (duo-devices.ts).
 * - Authenticator-app (TOTP) enrolment has no Duo equivalent: `mfa.not_supported_by_provider`
 *   (Duo's way is a phone activated in Duo Mobile: `addPhone` + `phoneActivation`, duo-phones.ts).
 * - Claiming a D100: find the `d1` token by serial, associate it, prove possession with the two codes
 *   through the Auth API (passcode factor: each must be valid, unused and after the previous one; Duo
 *   cannot tell whether they are consecutive), undo the association if they fail.
 * - Passcodes and bypass codes are checked by the Auth API (preauth, then auth with factor=passcode):
 *   Duo applies its own lockout and single use; the portal still rate-limits before calling
 *   (duo-verify-passcode.ts).
 * - Duo has no transactions: "first device" and "not the last device" are checked just before the
 *   change, not atomically with it (two concurrent requests of one user could both pass).
 * - Administration: unlock is Modify User with `status=active`, for a locked-out user only; the account
 *   lifecycle (create, disable/enable, rename, delete: SCIM, just-in-time, admin screens) is duo-lifecycle.ts.
 */

export function createDuoProvider(deps: DuoProviderDeps): MfaProvider {
  const lookups = duoLookups(deps);
  return {
    name: 'duo',
    capabilities: DUO_CAPABILITIES,
    lifecycle: duoAccountLifecycle(deps.admin),
    ...duoUsers(deps, lookups),
    ...duoDevices(deps, lookups),
    ...duoVerifyPasscode(deps, lookups),
    ...duoBypassCodes(deps, lookups),
    ...DUO_WEBAUTHN_METHODS,
    ...duoPhones(deps, lookups),
  };
}

/** The Duo adapter for a configuration: an Admin API client and an Auth API client. */
export function createDuoProviderFromConfig(
  config: DuoConfig,
  options: { logger?: DuoLogger; onRetry?: (retry: DuoRetryEvent) => void } = {},
): MfaProvider {
  const ca = config.caFile ? fs.readFileSync(config.caFile, 'utf8') : undefined;
  const common = {
    signatureVersion: config.signatureVersion,
    timeoutMs: config.timeoutMs,
    retry: config.retry,
    ca,
    logger: options.logger,
    onRetry: options.onRetry,
  };
  const adminClient = new DuoClient({ ...common, ...config.admin });
  const authClient = new DuoClient({ ...common, ...config.auth });
  return createDuoProvider({ admin: duoAdminApi(adminClient), auth: duoAuthApi(authClient) });
}
