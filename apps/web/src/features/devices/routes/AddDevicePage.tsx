import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCapabilities } from '../../../lib/capabilities/get-capabilities';
import { MAIN_ROUTES } from '../../../lib/routes';
import { Page } from '../../../lib/ui/Page';

const CHOICES = [
  { key: 'authenticator', to: MAIN_ROUTES.addAuthenticator, capability: 'totp' },
  { key: 'token', to: MAIN_ROUTES.addToken, capability: 'hardwareTokens' },
  { key: 'phone', to: MAIN_ROUTES.addPhone, capability: 'phones' },
] as const;

/**
 * Choose what to add: an authenticator app, a Duo D100 hardware token, or a phone. A kind the
 * organisation's MFA service cannot take is left out once its capabilities are known (the phone page
 * explains itself, so it stays); the first kind offered is the recommended one.
 */
export function AddDevicePage() {
  const { t } = useTranslation('devices');
  const capabilities = useCapabilities().data;
  const choices = CHOICES.filter((c) => !capabilities || c.key === 'phone' || capabilities[c.capability]).map((c, i) => ({
    ...c,
    recommended: i === 0,
  }));
  return (
    <Page title={t('add.title')} intro={<p>{t('add.intro')}</p>}>
      <div className="choice-grid">
        {choices.map((choice) => (
          <div key={choice.key} className="panel choice-card">
            <h2 className="choice-card__title">
              {t(`add.${choice.key}.title`)} {choice.recommended ? <span className="badge badge--info">{t('add.recommended')}</span> : null}
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
