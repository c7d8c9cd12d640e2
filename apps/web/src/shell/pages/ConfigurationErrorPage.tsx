import { useTranslation } from 'react-i18next';
import { PageLayout } from '../components/PageLayout';
import { ServiceDeskContact } from '../components/ServiceDeskContact';
import { ProblemDetails } from '../components/ProblemDetails';
import type { ShellProblem } from '../shell-state';

/** Start-up failed because the sign-in settings cannot be used (e.g. a non-https authority). */
export function ConfigurationErrorPage({ problem }: { problem: ShellProblem }) {
  const { t } = useTranslation('shell');
  return (
    <PageLayout title={t('configuration_error.title')}>
      <p>{t('configuration_error.body')}</p>
      <ServiceDeskContact />
      <ProblemDetails problem={problem} />
    </PageLayout>
  );
}
