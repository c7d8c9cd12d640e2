import { FACTOR_KINDS, factorKindOf, type Device, type FactorKind, type FactorPolicyRule, type MyFactorPolicy } from '@mfa-portal/shared';
import { AppError } from '../../lib/errors.js';
import { MfaError, type MfaProvider } from '../../mfa/port.js';
import type { FactorPolicyRepository } from './factor-policy.repository.js';
import { enrolRefusal, inOrder, OPEN_POLICY, resolveFactorPolicy, type EffectivePolicy } from './resolve-policy.js';

/**
 * One person's factor policy, read from the directory on every call (their groups now), and the checks
 * the rest of the portal makes with it: what "Add a device" offers and the server accepts, and what
 * sign-in and step-up accept. The administrator's side (changing the policy, the preview) is
 * modules/admin/factor-policy.
 */

/** What a person may use now, from the devices they hold: what sign-in and step-up offer and accept. */
export interface UsableFactors {
  policy: EffectivePolicy;
  /** Their devices that can verify, each with whether the policy lets it be used. */
  devices: ReadonlyArray<{ device: Device; kind: FactorKind; usable: boolean }>;
  /** A usable device gives passcodes. */
  passcode: boolean;
  /** Bypass codes may be used (whether they hold one is not read here). */
  bypass: boolean;
  /** A usable passkey or security key is held. */
  webauthn: boolean;
  /** Whether this device (by id) may be used; a device they do not hold is not. */
  deviceUsable(deviceId: string): boolean;
}

/** Words for a list of kinds in refusals ("security keys, passkeys"): the API's reasons are read by people too. */
const KIND_WORDS: Record<FactorKind, string> = {
  passkey: 'passkeys',
  security_key: 'security keys',
  portal_authenticator: 'phones with the portal’s authenticator app',
  phone: 'phones',
  authenticator_app: 'authenticator apps',
  hardware_token: 'hardware tokens',
  bypass_codes: 'bypass codes',
};
export const kindWords = (kinds: Iterable<FactorKind>) =>
  inOrder(kinds)
    .map((k) => KIND_WORDS[k])
    .join(', ') || 'nothing';

const whose = (policy: EffectivePolicy) =>
  policy.groups.length > 0 ? `The policy of ${policy.groups.map((g) => g.name).join(' and ')}` : 'The organisation’s policy';

/** 409 `factor_policy.limit_reached`: the person holds the most of `kind` their policy sets. */
function limitReached(policy: EffectivePolicy, kind: FactorKind): AppError {
  const max = policy.maxPerKind[kind]!;
  return new AppError({
    code: 'factor_policy.limit_reached',
    details: { kind, max, reason: `${whose(policy)} allows at most ${max} ${KIND_WORDS[kind]}.` },
  });
}

/** The devices of a person, or none when the MFA provider does not know them (yet). */
async function devicesOf(mfa: MfaProvider, upn: string): Promise<Device[]> {
  try {
    return await mfa.listDevices(upn);
  } catch (err) {
    if (err instanceof MfaError && err.code === 'not_provisioned') return [];
    throw err;
  }
}

export function createFactorPolicyService(deps: { repo: FactorPolicyRepository; mfa: MfaProvider }) {
  const { repo, mfa } = deps;

  /** The global policy in force (every kind, no limit, until an administrator saves one). */
  async function globalRule(): Promise<FactorPolicyRule> {
    return (await repo.global()) ?? OPEN_POLICY;
  }

  async function policyOf(upn: string): Promise<EffectivePolicy> {
    const [global, overrides] = await Promise.all([globalRule(), repo.overridesOf(upn)]);
    return resolveFactorPolicy(global, overrides);
  }

  async function usableNow(upn: string): Promise<UsableFactors> {
    const [policy, devices] = await Promise.all([policyOf(upn), devicesOf(mfa, upn)]);
    const held = devices
      .filter((d) => d.capabilities.length > 0)
      .map((device) => {
        const kind = factorKindOf(device);
        return { device, kind, usable: policy.use.has(kind) };
      });
    const usableIds = new Set(held.filter((h) => h.usable).map((h) => h.device.id));
    return {
      policy,
      devices: held,
      passcode: held.some((h) => h.usable && h.device.capabilities.includes('passcode')),
      bypass: policy.use.has('bypass_codes'),
      webauthn: held.some((h) => h.usable && h.device.capabilities.includes('webauthn')),
      deviceUsable: (id) => usableIds.has(id),
    };
  }

  /** How many of `kind` the person holds now (bypass codes: live codes). */
  async function heldOf(upn: string, kind: FactorKind): Promise<number> {
    if (kind === 'bypass_codes') return (await mfa.listBypassCodes(upn).catch(() => [])).length;
    return (await devicesOf(mfa, upn)).filter((d) => factorKindOf(d) === kind).length;
  }

  return {
    globalRule,
    policyOf,
    usableNow,

    /**
     * Refuses adding `adding` factors of `kind` that the person's policy does not allow now: 403
     * `factor_policy.kind_not_allowed` (with the kinds they may add), or 409 `factor_policy.limit_reached`.
     * `replacing`: bypass codes about to be revoked by the same change no longer count.
     */
    async assertMayEnrol(upn: string, kind: FactorKind, opts: { adding?: number; replacing?: boolean } = {}): Promise<void> {
      const policy = await policyOf(upn);
      // What they hold matters only against a limit.
      const held = opts.replacing || policy.maxPerKind[kind] === undefined ? 0 : await heldOf(upn, kind);
      const refusal = enrolRefusal(policy, kind, held, opts.adding ?? 1);
      if (refusal === null) return;
      if (refusal === 'limit_reached') throw limitReached(policy, kind);
      throw new AppError({
        code: 'factor_policy.kind_not_allowed',
        details: {
          kind,
          reason:
            policy.enrol.size > 0
              ? `${whose(policy)} allows adding only: ${kindWords(policy.enrol)}.`
              : `${whose(policy)} allows adding nothing here.`,
        },
      });
    },

    /**
     * Refuses bypass codes a service desk would issue to the person: 403 `factor_policy.kind_not_allowed`
     * where their policy does not let bypass codes be used to sign in, 409 `factor_policy.limit_reached`
     * beyond the most they may hold. Whether they may make codes themselves (enrol) is not asked: a policy
     * may leave codes to the service desk alone.
     */
    async assertMayBeIssuedBypassCodes(upn: string, opts: { adding?: number; replacing?: boolean } = {}): Promise<void> {
      const policy = await policyOf(upn);
      if (!policy.use.has('bypass_codes')) {
        throw new AppError({
          code: 'factor_policy.kind_not_allowed',
          details: { kind: 'bypass_codes', reason: `${whose(policy)} does not let bypass codes be used to sign in.` },
        });
      }
      const max = policy.maxPerKind.bypass_codes;
      if (max === undefined) return;
      const held = opts.replacing ? 0 : await heldOf(upn, 'bypass_codes');
      if (held + (opts.adding ?? 1) > max) throw limitReached(policy, 'bypass_codes');
    },

    /** Refuses (403 `factor_policy.method_not_allowed`) a device the person's policy does not let them use now. */
    async assertDeviceUsable(upn: string, deviceId: string): Promise<void> {
      const usable = await usableNow(upn);
      // A device they do not hold is the caller's to answer as "not found".
      if (!usable.devices.some((h) => h.device.id === deviceId) || usable.deviceUsable(deviceId)) return;
      throw methodNotAllowed(usable.policy);
    },

    /** What GET /api/me/factor-policy answers: what the caller may add and use now, and why not the rest. */
    async mine(upn: string): Promise<MyFactorPolicy> {
      const [usable, codes] = await Promise.all([usableNow(upn), mfa.listBypassCodes(upn).catch(() => [])]);
      const { policy } = usable;
      const count = (kind: FactorKind) => (kind === 'bypass_codes' ? codes.length : usable.devices.filter((h) => h.kind === kind).length);
      const unavailable = FACTOR_KINDS.map((kind) => ({ kind, reason: enrolRefusal(policy, kind, count(kind)) })).filter(
        (u): u is { kind: FactorKind; reason: NonNullable<typeof u.reason> } => u.reason !== null,
      );
      const blocked = new Set(unavailable.map((u) => u.kind));
      return {
        enrol: inOrder([...policy.enrol].filter((k) => !blocked.has(k))),
        use: inOrder(policy.use),
        requirePhishingResistant: policy.requirePhishingResistant,
        maxPerKind: policy.maxPerKind,
        unavailable,
        source: { kind: policy.groups.length > 0 ? 'groups' : 'global', groups: [...policy.groups] },
        disallowedDevices: usable.devices.filter((h) => !h.usable).map((h) => h.device.id),
        holdsUsable: usable.devices.some((h) => h.usable) || (usable.bypass && codes.length > 0),
      };
    },
  };
}

/** The refusal of a factor the person may not use at sign-in or step-up, naming what they may use. */
export function methodNotAllowed(policy: EffectivePolicy): AppError {
  return new AppError({
    code: 'factor_policy.method_not_allowed',
    details: { reason: `${whose(policy)} lets you confirm it is you only with: ${kindWords(policy.use)}.` },
  });
}

export type FactorPolicyService = ReturnType<typeof createFactorPolicyService>;
