import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CAMPAIGN_PROGRESS_KEYS } from '@mfa-portal/shared';
import { ADMIN_ROUTES } from '../../../lib/main-routes';
import { Loading } from '../../../lib/ui/Loading';
import { formatDate } from '../../../lib/ui/format';
import { lazyWithTimeout } from '../../../shell/lazy-with-timeout';
import { useCampaigns } from '../api/campaigns';
import { AdminErrorAlert } from './AdminErrorAlert';

/** recharts comes in its own chunk, only when a chart is drawn. */
const CampaignProgressChart = lazyWithTimeout(() => import('./CampaignProgressChart'));

/** Colours of the stages (contrast at least 3:1 on white, told apart by the table too). */
const COLORS: Record<(typeof CAMPAIGN_PROGRESS_KEYS)[number], string> = {
  enrolled: '#0b7a52',
  overdue: '#b3124a',
  snoozed: '#a34e00',
  reminded: '#7a3aa8',
  mailed: '#1f4e9c',
  waiting: '#505a66',
};

/**
 * The running enrolment campaigns on the reports page (Solution Administrators): where their people
 * stand (enrolled, overdue, put off, reminded, mailed, not mailed yet), as stacked bars with a summary,
 * and the same figures as a table.
 */
export function CampaignProgressSection() {
  const { t, i18n } = useTranslation('admin');
  const campaigns = useCampaigns();
  const active = (campaigns.data?.campaigns ?? []).filter((c) => c.state === 'active');
  const stages = CAMPAIGN_PROGRESS_KEYS.map((key) => ({ key, label: t(`campaigns.stage.${key}`), color: COLORS[key] }));
  const rows = active.map((c) => ({ name: c.target.name, ...c.progress }));
  const summary = t('campaigns.chart_summary', {
    count: active.length,
    enrolled: active.reduce((n, c) => n + c.progress.enrolled, 0),
    people: active.reduce((n, c) => n + c.progress.inScope, 0),
  });
  return (
    <section className="section" aria-labelledby="report-campaigns-heading">
      <h2 id="report-campaigns-heading">{t('campaigns.progress_title')}</h2>
      {campaigns.isPending ? <Loading label={t('campaigns.loading')} /> : null}
      {campaigns.isError ? (
        <AdminErrorAlert error={campaigns.error} title={t('campaigns.load_failed')} onRetry={() => void campaigns.refetch()} />
      ) : null}
      {campaigns.data && active.length === 0 ? (
        <p>
          {t('campaigns.none_running')} <Link to={ADMIN_ROUTES.campaigns}>{t('campaigns.go_to_page')}</Link>
        </p>
      ) : null}
      {active.length > 0 ? (
        <>
          <div className="report-chart" role="img" aria-label={summary}>
            <Suspense fallback={<Loading label={t('campaigns.loading_chart')} />}>
              <CampaignProgressChart rows={rows} stages={stages} />
            </Suspense>
          </div>
          <p className="form-note">{summary}</p>
          <div className="table-wrap" role="region" aria-label={t('campaigns.progress_table')} tabIndex={0}>
            <table className="data-table">
              <caption className="visually-hidden">{t('campaigns.progress_table')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('campaigns.col_target')}</th>
                  <th scope="col">{t('campaigns.col_deadline')}</th>
                  <th scope="col">{t('campaigns.stage.in_scope')}</th>
                  {stages.map((s) => (
                    <th key={s.key} scope="col">
                      {s.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {active.map((c) => (
                  <tr key={c.id}>
                    <th scope="row">{c.target.name}</th>
                    <td>{formatDate(c.deadline, i18n.resolvedLanguage)}</td>
                    <td>{c.progress.inScope}</td>
                    {stages.map((s) => (
                      <td key={s.key}>{c.progress[s.key]}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="form-note">{t('campaigns.stages_note')}</p>
        </>
      ) : null}
    </section>
  );
}
