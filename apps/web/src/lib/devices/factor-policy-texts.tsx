import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { FactorKind, MyFactorPolicy } from '@mfa-portal/shared';
import { kindsOnProvider, POLICY_KINDS } from './device-kinds';

/**
 * How the person's factor policy is worded on their screens (the `main` namespace, which every screen
 * loads): why a kind is not offered on Add a device, which of a passkey and a security key alone may be
 * added, and what to do about a device the policy no longer lets them use.
 */

type Capabilities = Parameters<typeof kindsOnProvider>[0];

/** Of a passkey and a security key, the one the policy alone lets them add (null: both, or neither). */
export function webauthnOnly(policy: Pick<MyFactorPolicy, 'enrol'> | undefined): 'passkey' | 'security_key' | null {
  if (!policy) return null;
  const passkey = policy.enrol.includes('passkey');
  const securityKey = policy.enrol.includes('security_key');
  return passkey === securityKey ? null : passkey ? 'passkey' : 'security_key';
}

/** The kinds this provider could add that the policy does not let the person add now, each with why. */
export function unavailableHere(capabilities: Capabilities, policy: MyFactorPolicy): MyFactorPolicy['unavailable'] {
  const here = new Set<FactorKind>(kindsOnProvider(capabilities).flatMap((kind) => POLICY_KINDS[kind]));
  return policy.unavailable.filter((u) => here.has(u.kind));
}

/** "your organisation's policy", or "the policy for Contractors and Finance". */
export function useWhosePolicy(policy: Pick<MyFactorPolicy, 'source'>): string {
  const { t } = useTranslation('main');
  const names = policy.source.groups.map((g) => g.name);
  return policy.source.kind === 'groups' && names.length > 0
    ? t('factor_policy.whose_groups', { groups: names.join(' and ') })
    : t('factor_policy.whose_global');
}

/** Add a device's note: the kinds not offered, and why (nothing when the policy withholds none). */
export function UnavailableKinds({ capabilities, policy }: { capabilities: Capabilities | undefined; policy: MyFactorPolicy | undefined }) {
  const { t } = useTranslation('main');
  const headingId = useId();
  const whose = useWhosePolicy(policy ?? { source: { kind: 'global', groups: [] } });
  if (!capabilities || !policy) return null;
  const items = unavailableHere(capabilities, policy);
  if (items.length === 0) return null;
  return (
    <section className="panel guidance" aria-labelledby={headingId}>
      <h2 id={headingId} className="guidance__title">
        {t('factor_policy.unavailable_title')}
      </h2>
      <p>{t('factor_policy.unavailable_intro', { whose })}</p>
      <ul>
        {items.map((u) => (
          <li key={u.kind}>
            {t(`factor_policy.kind.${u.kind}`)}: {t(`factor_policy.reason.${u.reason}`, { max: policy.maxPerKind[u.kind] ?? 0 })}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * What to do about a device the policy no longer lets them use: add one it allows, then remove this
 * one (the portal never removes it for them). Null for a device that may still be used.
 */
export function useDisallowedAdvice(policy: MyFactorPolicy | undefined): (deviceId: string) => string | null {
  const { t } = useTranslation('main');
  return (deviceId) => {
    if (!policy?.disallowedDevices.includes(deviceId)) return null;
    const addable = policy.enrol.filter((k) => k !== 'bypass_codes');
    const first = addable.length
      ? t('factor_policy.device_not_allowed', { allowed: addable.map((k) => t(`factor_policy.article.${k}`)).join(t('factor_policy.or')) })
      : t('factor_policy.device_not_allowed_nothing_to_add');
    return policy.holdsUsable ? first : `${first} ${t('factor_policy.device_not_allowed_no_usable')}`;
  };
}
