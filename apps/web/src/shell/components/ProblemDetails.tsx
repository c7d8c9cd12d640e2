import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShellProblem } from '../shell-state';

/** Known problem codes get their own plain-English explanation in shell.json (problems.<code>). */
const EXPLAINED = new Set([
  'in_mem_redirect_unavailable',
  'authority_not_https',
  'authority_invalid',
  'interaction_in_progress',
  'user_cancelled',
  'access_denied',
  'no_network_connectivity',
]);

/** Explains a sign-in problem in plain English and shows its code for the service desk. */
export function ProblemDetails({ problem }: { problem: ShellProblem }) {
  const { t } = useTranslation('shell');
  const headingId = useId();
  const explanation = EXPLAINED.has(problem.code) ? t(`problems.${problem.code}`) : t('problems.generic');
  return (
    <section className="problem" aria-labelledby={headingId}>
      <h2 id={headingId} className="problem__title">
        {t('problems.heading')}
      </h2>
      <p>{explanation}</p>
      <p className="problem__code">{t('problems.code', { code: problem.code })}</p>
    </section>
  );
}
