import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageLayout } from '../components/PageLayout';
import { ServiceDeskContact } from '../components/ServiceDeskContact';
import { ProblemDetails } from '../components/ProblemDetails';
import type { ShellProblem } from '../shell-state';

/** /error/unauthorized, /error/401, and the shell's unauthorized state (with the problem, when known). */
export function UnauthorizedPage({ problem }: { problem?: ShellProblem | undefined }) {
  const { t } = useTranslation('shell');
  return (
    <PageLayout title={t('unauthorized.title')}>
      <p>{t('unauthorized.body')}</p>
      <ServiceDeskContact />
      {problem ? <ProblemDetails problem={problem} /> : null}
      <div className="actions">
        {/* A full page load, so the shell starts over (and signs in again when needed). */}
        <Link className="button button--primary" to="/" reloadDocument>
          {t('common:actions.sign_in_again')}
        </Link>
      </div>
    </PageLayout>
  );
}
