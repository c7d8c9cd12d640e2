import type { CampaignRequirement } from '@mfa-portal/shared';

/**
 * Whether people meet what a campaign asks of them. The campaign module knows only this interface;
 * the composition root builds it from what the MFA provider and the factor policy can tell:
 *
 * - `device` (has any device): the portal's own store (one statement) on the builtin provider; the
 *   directory mirror (the provider's "enrolled", as last synced) on Duo, so a campaign never walks Duo
 *   person by person for it; otherwise the provider, person by person.
 * - `policy` (has a factor their policy lets them use, phishing-resistant where it requires one): the
 *   person's factor policy, resolved from their groups now, against the devices they hold.
 */
export interface RequirementCheck {
  /** Of `upns` (lower-case sign-in names), those who meet `requirement` now. */
  meeting(upns: readonly string[], requirement: CampaignRequirement): Promise<Set<string>>;
}

/** How many people a per-person check asks about at once (a provider's rate limits are per second). */
const PER_PERSON_CONCURRENCY = 4;

/** Runs `met` for each person, a few at a time, and keeps those who meet it. */
export async function eachPerson(upns: readonly string[], met: (upn: string) => Promise<boolean>): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < upns.length; i += PER_PERSON_CONCURRENCY) {
    const batch = upns.slice(i, i + PER_PERSON_CONCURRENCY);
    const answers = await Promise.all(batch.map(met));
    batch.forEach((upn, j) => answers[j] && out.add(upn));
  }
  return out;
}

export function requirementCheck(deps: {
  /** Of these people, those holding at least one device. */
  deviceHolders: (upns: readonly string[]) => Promise<Set<string>>;
  /** Whether one person holds a factor their factor policy lets them use (and requires, if it requires one). */
  policyMet: (upn: string) => Promise<boolean>;
}): RequirementCheck {
  return {
    meeting: (upns, requirement) => (requirement === 'device' ? deps.deviceHolders(upns) : eachPerson(upns, deps.policyMet)),
  };
}
