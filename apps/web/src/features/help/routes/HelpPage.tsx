import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSettings } from '../../../shell/contexts';
import { ServiceDeskContact } from '../../../shell/components/ServiceDeskContact';
import { AddKindLinks, RecommendationSentence } from '../../../lib/devices/AddDeviceAdvice';
import { useAddableKinds } from '../../../lib/devices/device-kinds';
import { MAIN_ROUTES } from '../../../lib/main-routes';
import { Page } from '../../../lib/ui/Page';

const QUESTIONS = ['what_is_mfa', 'which_device', 'lost_device', 'new_phone', 'bypass', 'locked'] as const;

/**
 * "Which device should I add?": the recommendation and the kinds this organisation's MFA service takes,
 * in the recommended order, from the one place Add a device and the overview use too.
 */
function WhichDevice() {
  const { t } = useTranslation('help');
  const advice = useAddableKinds();
  return (
    <p>
      <RecommendationSentence advice={advice} /> {t('faq.which_device.answer')} <AddKindLinks advice={advice} />
    </p>
  );
}

/** Where to get help: the organisation's setup instructions and community page (from configuration), and short answers. */
export function HelpPage() {
  const { t } = useTranslation('help');
  const { links } = useSettings().apiInfo;
  return (
    <Page
      title={t('title')}
      intro={
        <>
          <p>{t('intro')}</p>
          <ServiceDeskContact />
        </>
      }
    >
      <div className="choice-grid">
        <div className="panel choice-card">
          <h2 className="choice-card__title">{t('setup.title')}</h2>
          <p>{t('setup.body')}</p>
          <a className="button button--primary" href={links.setupInstructions} target="_blank" rel="noreferrer">
            {t('setup.link')}
            <span className="visually-hidden"> {t('new_tab')}</span>
          </a>
        </div>
        <div className="panel choice-card">
          <h2 className="choice-card__title">{t('community.title')}</h2>
          <p>{t('community.body')}</p>
          <a className="button" href={links.community} target="_blank" rel="noreferrer">
            {t('community.link')}
            <span className="visually-hidden"> {t('new_tab')}</span>
          </a>
        </div>
      </div>
      <section className="section" aria-labelledby="faq-heading">
        <h2 id="faq-heading">{t('faq.title')}</h2>
        {QUESTIONS.map((q) => (
          <details key={q} className="faq">
            <summary>{t(`faq.${q}.question`)}</summary>
            {q === 'which_device' ? <WhichDevice /> : <p>{t(`faq.${q}.answer`)}</p>}
          </details>
        ))}
        <p>
          <Link to={MAIN_ROUTES.addDevice}>{t('add_device_link')}</Link>
        </p>
      </section>
    </Page>
  );
}
