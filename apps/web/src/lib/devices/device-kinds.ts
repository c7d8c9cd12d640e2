import type { FactorKind, MyFactorPolicy, ProviderCapabilitiesResponse } from '@mfa-portal/shared';
import { useCapabilities } from '../capabilities/get-capabilities';
import { useFactorPolicy } from './api/get-factor-policy';
import { MAIN_ROUTES } from '../main-routes';

/**
 * The kinds of device a person can add, in the one order the portal recommends them everywhere (Add a
 * device, the overview's advice, Help): a passkey first, because it cannot be tricked by a fake website;
 * then a phone that approves a push showing where the sign-in comes from (the portal's own app, or Duo
 * Mobile on a phone added by number); then an authenticator app, whose codes are quick to set up but can
 * be typed into a fake page; last a hardware token, which the service desk has to hand out.
 */
export const ADDABLE_KINDS = ['passkey', 'portal_authenticator', 'phone', 'authenticator', 'token'] as const;
export type AddableKind = (typeof ADDABLE_KINDS)[number];

/** Where each kind is added. */
export const ADD_ROUTES: Record<AddableKind, string> = {
  passkey: MAIN_ROUTES.addPasskey,
  portal_authenticator: MAIN_ROUTES.addPortalAuthenticator,
  phone: MAIN_ROUTES.addPhone,
  authenticator: MAIN_ROUTES.addAuthenticator,
  token: MAIN_ROUTES.addToken,
};

type Capabilities = Pick<
  ProviderCapabilitiesResponse,
  'phones' | 'totp' | 'hardwareTokens' | 'webauthn' | 'webauthnEnrolledInProviderPrompt' | 'authenticatorApp'
>;

/** Whether the portal adds this kind itself on this provider (Duo's passkeys are added in Duo's own prompt). */
export function addedInPortal(kind: AddableKind, capabilities: Capabilities): boolean {
  switch (kind) {
    case 'passkey':
      return capabilities.webauthn;
    case 'portal_authenticator':
      return capabilities.authenticatorApp;
    case 'phone':
      // A phone by its number, where the provider reaches phones; where the portal's own app is the
      // phone choice (the builtin provider), a number would be saved nowhere.
      return capabilities.phones;
    case 'authenticator':
      return capabilities.totp;
    case 'token':
      return capabilities.hardwareTokens;
  }
}

/**
 * The kinds a person can add on this provider, in the recommended order: first those the portal adds
 * itself, then those added in the provider's own prompt (Duo's passkeys, whose page says where).
 * Nothing that would end in "cannot be added here" is in it.
 */
export function kindsOnProvider(capabilities: Capabilities): AddableKind[] {
  const inPortal = ADDABLE_KINDS.filter((kind) => addedInPortal(kind, capabilities));
  const inPrompt = capabilities.webauthnEnrolledInProviderPrompt && !capabilities.webauthn ? (['passkey'] as const) : [];
  return [...inPortal, ...inPrompt];
}

/**
 * The one filter a per-person policy plugs into: of the kinds offered, those `allowed` (all when no
 * policy applies), keeping the recommended order.
 */
export function allowedKinds(kinds: readonly AddableKind[], allowed: readonly AddableKind[] | null = null): AddableKind[] {
  return allowed ? kinds.filter((kind) => allowed.includes(kind)) : [...kinds];
}

export interface AddableKinds {
  /** What can be added, in the recommended order; empty until the capabilities are known. */
  kinds: AddableKind[];
  /** The kind recommended (the first the portal adds itself), or null. */
  recommended: AddableKind | null;
  isPending: boolean;
}

/** The kinds offered and the recommended one, from the provider's capabilities (and, later, the person's policy). */
export function addableKinds(capabilities: Capabilities | undefined, allowed: readonly AddableKind[] | null = null): AddableKinds {
  if (!capabilities) return { kinds: [], recommended: null, isPending: true };
  const kinds = allowedKinds(kindsOnProvider(capabilities), allowed);
  return { kinds, recommended: kinds.find((kind) => addedInPortal(kind, capabilities)) ?? null, isPending: false };
}

/** The factor policy's kinds behind each kind offered (one page adds a passkey or a security key). */
export const POLICY_KINDS: Record<AddableKind, readonly FactorKind[]> = {
  passkey: ['passkey', 'security_key'],
  portal_authenticator: ['portal_authenticator'],
  phone: ['phone'],
  authenticator: ['authenticator_app'],
  token: ['hardware_token'],
};

/** The kinds the person's factor policy lets them add now (null: not known, so no filter; the server still refuses). */
export function policyAllowedKinds(policy: Pick<MyFactorPolicy, 'enrol'> | undefined): AddableKind[] | null {
  if (!policy) return null;
  return ADDABLE_KINDS.filter((kind) => POLICY_KINDS[kind].some((k) => policy.enrol.includes(k)));
}

/** {@link addableKinds} for the signed-in person, within their factor policy; `enabled: false` defers asking. */
export function useAddableKinds(options: { enabled?: boolean } = {}): AddableKinds {
  const policy = useFactorPolicy(options);
  const advice = addableKinds(useCapabilities(options).data, policyAllowedKinds(policy.data));
  // Until the policy is known nothing is offered: it may allow less than the provider can do.
  return policy.isLoading ? { kinds: [], recommended: null, isPending: true } : advice;
}
