import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCapabilities } from '../../../lib/capabilities/get-capabilities';
import { RecommendationSentence } from '../../../lib/devices/AddDeviceAdvice';
import { useFactorPolicy } from '../../../lib/devices/api/get-factor-policy';
import { ADD_ROUTES, useAddableKinds } from '../../../lib/devices/device-kinds';
import { UnavailableKinds, webauthnOnly } from '../../../lib/devices/factor-policy-texts';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useEnrolmentPolicy } from '../api/enrolment-pass';
import { EnrolmentPassPanel } from '../components/EnrolmentPassPanel';

/**
 * Choose what to add: exactly the kinds the organisation's MFA service can add and its factor policy
 * lets this person add now, in the one recommended order, with the one recommendation sentence
 * (lib/devices, which the overview and Help use too), and why the others are not offered. Nothing is
 * offered that would end in "cannot be added here"; until the capabilities and the policy are known,
 * nothing is offered.
 */
export function AddDevicePage() {
  const { t } = useTranslation('devices');
  const { t: tm } = useTranslation('main');
  const capabilities = useCapabilities();
  // What the provider can add, within what the person's factor policy lets them add now.
  const advice = useAddableKinds();
  const policy = useFactorPolicy().data;
  const onlyOne = webauthnOnly(policy);
  // The first-device policy may ask for an enrolment pass from the service desk first.
  const passRequired = useEnrolmentPolicy().data?.passRequired === true;
  // Duo enrols passkeys in its own prompt: its card says so, and its page says where to go.
  const inPrompt = capabilities.data?.webauthnEnrolledInProviderPrompt === true && !capabilities.data.webauthn;
  return (
    <Page
      title={t('add.title')}
      intro={
        <p>
          {t('add.intro')} <RecommendationSentence advice={advice} />
        </p>
      }
    >
      {passRequired ? <EnrolmentPassPanel /> : null}
      {advice.isPending && !passRequired ? <Loading label={t('phone.loading')} /> : null}
      <div className="choice-grid" hidden={passRequired}>
        {advice.kinds.map((kind) => (
          <div key={kind} className="panel choice-card">
            <h2 className="choice-card__title">
              {kind === 'passkey' && onlyOne ? tm(`factor_policy.${onlyOne}_only.title`) : t(`add.${kind}.title`)}{' '}
              {kind === advice.recommended ? <span className="badge badge--info">{t('add.recommended')}</span> : null}
            </h2>
            <p>
              {kind === 'passkey' && inPrompt
                ? t('add.passkey.body_in_provider_prompt')
                : kind === 'passkey' && onlyOne
                  ? tm(`factor_policy.${onlyOne}_only.body`)
                  : t(`add.${kind}.body`)}
            </p>
            <Link className={kind === advice.recommended ? 'button button--primary' : 'button'} to={ADD_ROUTES[kind]}>
              {kind === 'passkey' && onlyOne ? tm(`factor_policy.${onlyOne}_only.add`) : tm(`device_kinds.${kind}.add`)}
            </Link>
          </div>
        ))}
      </div>
      {passRequired ? null : <UnavailableKinds capabilities={capabilities.data} policy={policy} />}
    </Page>
  );
}
