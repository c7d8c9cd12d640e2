import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCapabilities } from '../../../lib/capabilities/get-capabilities';
import { MAIN_ROUTES } from '../../../lib/main-routes';
import { Page } from '../../../lib/ui/Page';
import { useEnrolmentPolicy } from '../api/enrolment-pass';
import { EnrolmentPassPanel } from '../components/EnrolmentPassPanel';

const CHOICES = [
  { key: 'passkey', to: MAIN_ROUTES.addPasskey, capability: 'webauthn' },
  { key: 'portal_authenticator', to: MAIN_ROUTES.addPortalAuthenticator, capability: 'authenticatorApp' },
  { key: 'authenticator', to: MAIN_ROUTES.addAuthenticator, capability: 'totp' },
  { key: 'token', to: MAIN_ROUTES.addToken, capability: 'hardwareTokens' },
  { key: 'phone', to: MAIN_ROUTES.addPhone, capability: 'phones' },
] as const;

type Choice = (typeof CHOICES)[number];

/**
 * Choose what to add: a passkey or security key, a phone with the portal's own authenticator app, an
 * authenticator app, a Duo D100 hardware token, or a phone. A kind the organisation's MFA service cannot
 * take is left out once its capabilities are known (the phone page explains itself, so it stays, unless
 * the portal's own app is offered for phones instead); the first kind offered is the recommended one, and
 * the portal's app, which does push and passcodes, is the recommended phone.
 */
export function AddDevicePage() {
  const { t } = useTranslation('devices');
  const capabilities = useCapabilities().data;
  // The first-device policy may ask for an enrolment pass from the service desk first.
  const passRequired = useEnrolmentPolicy().data?.passRequired === true;
  // Duo enrols passkeys in its own prompt: the passkey card stays and its page says where to go.
  const offered = (c: Choice) =>
    !capabilities ||
    (c.key === 'phone' && !(capabilities.authenticatorApp && !capabilities.phones)) ||
    capabilities[c.capability] ||
    (c.key === 'passkey' && capabilities.webauthnEnrolledInProviderPrompt);
  const filtered = CHOICES.filter(offered);
  // The first kind the portal itself can add is the recommended one.
  const first = filtered.find((c) => c.key !== 'passkey' || capabilities?.webauthn === true);
  const choices = filtered.map((c) => ({
    ...c,
    recommended: c === first,
    recommendedPhone: c !== first && c.key === 'portal_authenticator',
  }));
  return (
    <Page title={t('add.title')} intro={<p>{t('add.intro')}</p>}>
      {passRequired ? <EnrolmentPassPanel /> : null}
      <div className="choice-grid" hidden={passRequired}>
        {choices.map((choice) => (
          <div key={choice.key} className="panel choice-card">
            <h2 className="choice-card__title">
              {t(`add.${choice.key}.title`)} {choice.recommended ? <span className="badge badge--info">{t('add.recommended')}</span> : null}
              {choice.recommendedPhone ? <span className="badge badge--info">{t('add.recommended_phone')}</span> : null}
            </h2>
            <p>{t(`add.${choice.key}.body`)}</p>
            <Link className="button button--primary" to={choice.to}>
              {t(`add.${choice.key}.action`)}
            </Link>
          </div>
        ))}
      </div>
    </Page>
  );
}
