import { AppError } from '../../lib/errors.js';
import { MfaError } from '../../mfa/port.js';
import { conflict, ScimError } from './scim-errors.js';

/**
 * Runs an MFA-account effect of a SCIM change (the provider's `lifecycle`) and answers the provider's
 * refusal as a SCIM error: the change's transaction then rolls back, so the portal records nothing the
 * provider did not accept. A username the provider holds for someone else is a 409 `uniqueness`; a
 * provider that refused the call a 502, one that could not be reached (or rate-limited it) a 503/429,
 * which Entra's provisioning service retries later.
 */
export async function atProvider<T>(effect: () => Promise<T>): Promise<T> {
  try {
    return await effect();
  } catch (err) {
    if (err instanceof MfaError) {
      if (err.details.field === 'userName') throw conflict(`The MFA provider refused the userName: ${err.details.reason ?? err.code}.`);
      throw new ScimError(409, `The MFA provider refused the change: ${err.details.reason ?? err.code}. Nothing was changed.`);
    }
    if (err instanceof AppError && err.code.startsWith('mfa.provider_')) {
      const provider = String(err.details?.provider ?? 'MFA provider');
      const answered = err.details?.providerStatus !== undefined ? ` (it answered HTTP ${String(err.details.providerStatus)})` : '';
      if (err.code === 'mfa.provider_rejected')
        throw new ScimError(502, `The MFA provider (${provider}) refused the change${answered}. Nothing was changed.`);
      const status = err.code === 'mfa.provider_rate_limited' ? 429 : 503;
      throw new ScimError(
        status,
        `The MFA provider (${provider}) cannot be reached just now${answered}. Nothing was changed; try again later.`,
      );
    }
    throw err;
  }
}
