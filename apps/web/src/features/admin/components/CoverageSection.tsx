import { Suspense } from 'react';
import { lazyWithTimeout } from '../../../shell/lazy-with-timeout';
import { useTranslation } from 'react-i18next';
import { REPORT_FACTOR_KINDS, type CoverageFigures, type ReportCoverageResponse } from '@mfa-portal/shared';
import { Loading } from '../../../lib/ui/Loading';
import { NativeSelect } from '../../../lib/ui/NativeSelect';
import { formatDate } from '../../../lib/ui/format';
import type { useCoverage } from '../api/reports';
import { AdminErrorAlert } from './AdminErrorAlert';

/** recharts comes in its own chunk, only when a chart is drawn. */
const CoverageChart = lazyWithTimeout(() => import('./CoverageChart'));

const RANGES = [7, 30, 90, 365] as const;
const DAY_MS = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
/** Colours of the lines (contrast at least 3:1 on white). */
const COLORS: Record<string, string> = {
  covered: '#1f4e9c',
  authenticator: '#0b7a52',
  phone: '#a34e00',
  hardware_token: '#7a3aa8',
  passkey: '#b3124a',
  bypass_codes: '#505a66',
};

const share = (n: number, of: number) => (of > 0 ? (n / of) * 100 : 0);

/** "42 of 50 staff (84%)" and each kind, as a list of figures. */
function Figures({ figures }: { figures: CoverageFigures }) {
  const { t, i18n } = useTranslation('admin');
  const pct = (n: number) => new Intl.NumberFormat(i18n.resolvedLanguage, { maximumFractionDigits: 1 }).format(share(n, figures.staff));
  return (
    <>
      <p className="report-headline" data-testid="coverage-headline">
        {t('reports.coverage.headline', { covered: figures.covered, staff: figures.staff, percent: pct(figures.covered) })}
      </p>
      <dl className="report-figures">
        {REPORT_FACTOR_KINDS.map((kind) => (
          <div key={kind} className="report-figures__item">
            <dt>{t(`reports.kind.${kind}`)}</dt>
            <dd>{t('reports.coverage.kind_figure', { count: figures.byKind[kind], percent: pct(figures.byKind[kind]) })}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/** The daily shares as a line chart (role="img" with a summary) and the same figures as a table. */
function History({ data }: { data: ReportCoverageResponse }) {
  const { t, i18n } = useTranslation('admin');
  const formatDay = (day: string) => formatDate(`${day}T12:00:00Z`, i18n.resolvedLanguage);
  const points = data.history.map((h) => ({
    day: h.day,
    covered: share(h.covered, h.staff),
    ...Object.fromEntries(REPORT_FACTOR_KINDS.map((k) => [k, share(h.byKind[k], h.staff)])),
  }));
  if (points.length === 0) return <p className="form-note">{t('reports.coverage.no_history')}</p>;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const summary = t('reports.coverage.chart_summary', {
    from: formatDay(first.day),
    to: formatDay(last.day),
    start: first.covered.toFixed(1),
    end: last.covered.toFixed(1),
    count: points.length,
  });
  const series = [
    { key: 'covered', label: t('reports.coverage.any_device'), color: COLORS.covered! },
    ...REPORT_FACTOR_KINDS.map((k) => ({ key: k, label: t(`reports.kind.${k}`), color: COLORS[k]! })),
  ];
  return (
    <>
      <div className="report-chart" role="img" aria-label={summary}>
        <Suspense fallback={<Loading label={t('reports.coverage.loading_chart')} />}>
          <CoverageChart points={points} series={series} formatDay={formatDay} />
        </Suspense>
      </div>
      <p className="form-note">{summary}</p>
      <table className="visually-hidden">
        <caption>{t('reports.coverage.table_label')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('reports.coverage.day')}</th>
            {series.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.day}>
              <th scope="row">{formatDay(p.day)}</th>
              {series.map((s) => (
                <td key={s.key}>{`${Number(p[s.key as keyof typeof p]).toFixed(1)}%`}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The range of the chart, in days, that the screen starts with. */
export const DEFAULT_RANGE_DAYS = 30;

/** The first and last day of a range of `days` days ending today (YYYY-MM-DD, UTC). */
export function rangeOf(days: number, now = new Date()) {
  return { from: dayOf(new Date(now.getTime() - (days - 1) * DAY_MS)), to: dayOf(now) };
}

/**
 * Enrolment coverage: today's figures and the moment they describe (counted now, with the lists
 * below, or the last hourly snapshot), the period to chart, and the chart with its text alternative.
 */
export function CoverageSection({
  coverage,
  days,
  onDaysChange,
}: {
  coverage: ReturnType<typeof useCoverage>;
  days: number;
  onDaysChange: (days: number) => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const { from } = rangeOf(days);
  const data = coverage.data;
  return (
    <section className="section" aria-labelledby="report-coverage-heading">
      <h2 id="report-coverage-heading">{t('reports.coverage.title')}</h2>
      <p>{t('reports.coverage.intro')}</p>
      {coverage.isPending ? (
        <Loading label={t('reports.loading')} />
      ) : coverage.isError ? (
        <AdminErrorAlert error={coverage.error} title={t('reports.failed')} onRetry={() => void coverage.refetch()} />
      ) : !data?.current ? (
        <p className="form-note" role="note">
          {t('reports.coverage.not_available')}
        </p>
      ) : (
        <>
          <Figures figures={data.current} />
          {data.takenAt ? (
            <p className="form-note" data-testid="coverage-moment">
              {t(data.source === 'live' ? 'reports.coverage.as_of_live' : 'reports.coverage.as_of', {
                time: formatDate(data.takenAt, i18n.resolvedLanguage, true),
              })}
            </p>
          ) : null}
          <div className="report-range">
            <label htmlFor="report-range">{t('reports.coverage.range_label')}</label>
            <NativeSelect
              id="report-range"
              value={String(days)}
              onChange={(v) => onDaysChange(Number(v))}
              options={RANGES.map((n) => ({ value: String(n), label: t('reports.coverage.range', { count: n }) }))}
            />
          </div>
          <History data={data} />
          {data.historySince && data.historySince > from ? (
            <p className="form-note">
              {t('reports.coverage.history_since', { day: formatDate(`${data.historySince}T12:00:00Z`, i18n.resolvedLanguage) })}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
