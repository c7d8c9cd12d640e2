import { useTranslation } from 'react-i18next';
import { PageLayout } from '../components/PageLayout';
import { ServiceDeskContact } from '../components/ServiceDeskContact';
import { SignOutButton } from '../components/SignOutButton';

/** /error/missingtwofactor: the user has no account at the MFA provider. */
export function MissingTwoFactorPage() {
  const { t } = useTranslation('shell');
  return (
    <PageLayout title={t('missing_two_factor.title')} headerActions={<SignOutButton />}>
      <p>{t('missing_two_factor.body')}</p>
      <ServiceDeskContact />
    </PageLayout>
  );
}
