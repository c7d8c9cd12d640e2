import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MAIN_ROUTES } from '../../../lib/routes';
import { Page } from '../../../lib/ui/Page';

const CHOICES = [
  { key: 'authenticator', to: MAIN_ROUTES.addAuthenticator, recommended: true },
  { key: 'token', to: MAIN_ROUTES.addToken, recommended: false },
  { key: 'phone', to: MAIN_ROUTES.addPhone, recommended: false },
] as const;

/** Choose what to add: an authenticator app (recommended), a Duo D100 hardware token, or a phone. */
export function AddDevicePage() {
  const { t } = useTranslation('devices');
  return (
    <Page title={t('add.title')} intro={<p>{t('add.intro')}</p>}>
      <div className="choice-grid">
        {CHOICES.map((choice) => (
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
