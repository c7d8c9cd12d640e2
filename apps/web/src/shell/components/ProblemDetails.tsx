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
  'consent_required',
  'interaction_required',
  'login_required',
]);

/**
 * Entra ID names the cause in `error_description` (`AADSTS…: …`) while `error` stays generic: a user
 * not assigned to the application comes back as `interaction_required` with AADSTS50105.
 */
const ENTRA_CAUSES: Record<string, string> = {
  '50105': 'user_not_assigned',
  '65001': 'consent_required',
  '50076': 'interaction_required',
  '50079': 'interaction_required',
};

/** The shell.json key (under problems.) that explains a problem, or null for the generic text. */
export function explanationOf(problem: ShellProblem): string | null {
  const cause = /\bAADSTS(\d+)\b/.exec(problem.message)?.[1];
  if (cause && ENTRA_CAUSES[cause]) return ENTRA_CAUSES[cause];
  return EXPLAINED.has(problem.code) ? problem.code : null;
}

/** Explains a sign-in problem in plain English and shows its code for the service desk. */
export function ProblemDetails({ problem }: { problem: ShellProblem }) {
  const { t } = useTranslation('shell');
  const headingId = useId();
  const key = explanationOf(problem);
  const explanation = key ? t(`problems.${key}`) : t('problems.generic');
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
