import { ceremonyOf, type WebauthnServiceDeps } from './ceremony.js';
import { webauthnAssertion } from './webauthn-assertion.js';
import { webauthnRegistration } from './webauthn-registration.js';

export type { WebauthnContext, WebauthnRelyingParty, WebauthnServiceDeps } from './ceremony.js';

/**
 * WebAuthn ceremonies with SimpleWebAuthn: registration of passkeys and security keys
 * (webauthn-registration.ts), and assertions for step-up, a device test and the embedded sign-in's
 * second factor (webauthn-assertion.ts); the administrator's policy is its own service
 * (webauthn-policy.service.ts). The relying party is the portal: RP ID = its host, expected origin =
 * its origin. User verification is required. What the ceremonies share (challenges, account checks,
 * budgets, audit) is in ceremony.ts.
 */
export function createWebauthnService(deps: WebauthnServiceDeps) {
  const ceremony = ceremonyOf(deps);
  return { ...webauthnRegistration(deps, ceremony), ...webauthnAssertion(deps, ceremony) };
}

export type WebauthnService = ReturnType<typeof createWebauthnService>;
