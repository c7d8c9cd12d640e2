import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { FinishAssertionBody, FinishRegistrationBody } from '@mfa-portal/shared';
import { ApiError } from '../api/api-error';

/**
 * The browser's half of a WebAuthn ceremony (SimpleWebAuthn's browser library): the server's options
 * in, the authenticator's answer out as JSON. A cancelled, timed-out or impossible ceremony becomes an
 * ApiError `client.webauthn_cancelled`, shown like any other failure.
 */
async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new ApiError(0, 'client.webauthn_cancelled', error instanceof Error ? error.message : String(error));
  }
}

export function createCredential(options: Record<string, unknown>): Promise<FinishRegistrationBody['response']> {
  return ceremony(
    async () =>
      (await startRegistration({
        optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
      })) as FinishRegistrationBody['response'],
  );
}

export function getAssertion(options: Record<string, unknown>): Promise<FinishAssertionBody['response']> {
  return ceremony(
    async () =>
      (await startAuthentication({
        optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      })) as FinishAssertionBody['response'],
  );
}
