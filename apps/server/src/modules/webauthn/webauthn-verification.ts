import { AppError } from '../../lib/errors.js';

/** A WebAuthn response that did not verify: 400 `webauthn.verification_failed`, naming the response and why. */
export const verificationFailed = (err: unknown) =>
  new AppError({
    code: 'webauthn.verification_failed',
    details: {
      field: 'response',
      reason: err instanceof Error ? err.message.slice(0, 300) : 'The response could not be verified.',
    },
  });

/** The library's answer once verified (its registration answer is a union on `verified`, its assertion answer is not). */
type Verified<T> = [Extract<T, { verified: true }>] extends [never] ? T : Extract<T, { verified: true }>;

/**
 * What the WebAuthn library answers for a registration or an assertion; a throw, or an answer that did
 * not verify, is `webauthn.verification_failed`.
 */
export async function verifiedBy<T extends { verified: boolean }>(check: () => Promise<T>): Promise<Verified<T>> {
  let result: T;
  try {
    result = await check();
  } catch (err) {
    throw verificationFailed(err);
  }
  if (!result.verified) throw verificationFailed(null);
  return result as Verified<T>;
}
