import { FACTOR_KINDS, PHISHING_RESISTANT_KINDS, type FactorKind, type FactorMaxPerKind, type FactorPolicyRule } from '@mfa-portal/shared';

/**
 * What one person's factor policy is, from the global policy and the overrides of their directory groups.
 *
 * - A person in no group with an override gets the global policy.
 * - A person in groups with overrides gets the **strictest combination of those overrides** (the global
 *   policy no longer applies to them, so an override may also allow what the global policy does not,
 *   as a Duo group policy does):
 *   - a kind may be enrolled, or used, only if **every** one of those overrides allows it (intersection);
 *   - a phishing-resistant factor is required if **any** of them requires it;
 *   - the most of a kind a person may hold is the **smallest** maximum any of them sets (a kind none of
 *     them limits has no limit).
 * - Requiring a phishing-resistant factor leaves only passkeys and security keys usable.
 * - A kind that may not be used is never offered for enrolment, whatever `enrol` says: it could not sign
 *   the person in.
 *
 * Example: global lets everyone enrol and use everything. "Contractors" allows passkeys, security keys
 * and authenticator apps, at most 2 security keys; "Finance" allows security keys and authenticator
 * apps, at most 3 security keys, and requires phishing-resistant. A contractor in Finance may use
 * security keys only (authenticator apps fall to the requirement, passkeys to Finance), and hold at most
 * 2 of them. A contractor elsewhere may use all three kinds, and someone in neither group everything.
 *
 * The protected accounts' own rule (the passkey policy's "phishing-resistant for protected accounts")
 * is applied on top of this, by the step-up, as before.
 */

export interface NamedOverride extends FactorPolicyRule {
  groupId: string;
  groupName: string;
}

export interface EffectivePolicy {
  /** Kinds the person may add: allowed to enrol and to use. */
  enrol: ReadonlySet<FactorKind>;
  /** Kinds the person may use at sign-in and step-up. */
  use: ReadonlySet<FactorKind>;
  requirePhishingResistant: boolean;
  maxPerKind: FactorMaxPerKind;
  /** The overrides that made it (empty: the global policy). */
  groups: ReadonlyArray<{ id: string; name: string }>;
}

/** Kinds in the one recommended order, whatever order a set holds them in. */
export const inOrder = (kinds: Iterable<FactorKind>): FactorKind[] => {
  const set = new Set(kinds);
  return FACTOR_KINDS.filter((k) => set.has(k));
};

const intersection = (lists: ReadonlyArray<readonly FactorKind[]>): Set<FactorKind> =>
  new Set(FACTOR_KINDS.filter((k) => lists.every((list) => list.includes(k))));

/** The person's policy: the global one, or the strictest combination of their groups' overrides. */
export function resolveFactorPolicy(global: FactorPolicyRule, overrides: readonly NamedOverride[]): EffectivePolicy {
  const rules: readonly FactorPolicyRule[] = overrides.length > 0 ? overrides : [global];
  const requirePhishingResistant = rules.some((r) => r.requirePhishingResistant);
  const use = intersection(rules.map((r) => r.use));
  if (requirePhishingResistant) for (const k of [...use]) if (!PHISHING_RESISTANT_KINDS.includes(k)) use.delete(k);
  const enrol = intersection(rules.map((r) => r.enrol));
  for (const k of [...enrol]) if (!use.has(k)) enrol.delete(k);
  const maxPerKind: FactorMaxPerKind = {};
  for (const k of FACTOR_KINDS) {
    const limits = rules.map((r) => r.maxPerKind[k]).filter((n): n is number => n !== undefined);
    if (limits.length > 0) maxPerKind[k] = Math.min(...limits);
  }
  const groups = [...overrides].sort((a, b) => a.groupName.localeCompare(b.groupName)).map((o) => ({ id: o.groupId, name: o.groupName }));
  return { enrol, use, requirePhishingResistant, maxPerKind, groups };
}

/** The policy before any administrator wrote one: every kind, no limit (what the portal did without a policy). */
export const OPEN_POLICY: FactorPolicyRule = {
  enrol: [...FACTOR_KINDS],
  use: [...FACTOR_KINDS],
  requirePhishingResistant: false,
  maxPerKind: {},
};

/** What a rule lets be used at all (for bad input: a rule nobody could sign in with). */
export function usableKindsOf(rule: FactorPolicyRule): FactorKind[] {
  return inOrder(rule.use.filter((k) => !rule.requirePhishingResistant || PHISHING_RESISTANT_KINDS.includes(k)));
}

/** How many factors of each kind a person holds (usable ones: a device that can verify, a live bypass code). */
export type Holding = Partial<Record<FactorKind, number>>;

/** The kinds held that the policy lets be used, and those it does not. */
export function splitHolding(policy: Pick<EffectivePolicy, 'use'>, holding: Holding): { usable: FactorKind[]; disallowed: FactorKind[] } {
  const held = inOrder(FACTOR_KINDS.filter((k) => (holding[k] ?? 0) > 0));
  return { usable: held.filter((k) => policy.use.has(k)), disallowed: held.filter((k) => !policy.use.has(k)) };
}

/** Why a kind may not be added now; null when it may. */
export function enrolRefusal(
  policy: Pick<EffectivePolicy, 'enrol' | 'use' | 'requirePhishingResistant' | 'maxPerKind'>,
  kind: FactorKind,
  held: number,
  adding = 1,
): 'not_allowed' | 'phishing_resistant_required' | 'limit_reached' | null {
  if (!policy.enrol.has(kind)) {
    return policy.requirePhishingResistant && !PHISHING_RESISTANT_KINDS.includes(kind) ? 'phishing_resistant_required' : 'not_allowed';
  }
  const max = policy.maxPerKind[kind];
  return max !== undefined && held + adding > max ? 'limit_reached' : null;
}
