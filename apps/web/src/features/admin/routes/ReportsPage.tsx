import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from 'antd';
import { ADMIN_ROUTES } from '../../../lib/main-routes';
import { Page } from '../../../lib/ui/Page';
import { formatDate } from '../../../lib/ui/format';
import { useCoverage } from '../api/reports';
import { CoverageSection, DEFAULT_RANGE_DAYS, rangeOf } from '../components/CoverageSection';
import { NotificationOutboxSection } from '../components/NotificationOutboxSection';
import { ReportListSection } from '../components/ReportListSection';

/**
 * Reports for Solution Administrators: enrolment coverage now and over time, and the lists
 * that need attention (staff without a device, locked or disabled accounts, stale devices, bypass
 * codes in force), each downloadable as CSV. Loaded on demand (its chart library in a chunk of its own).
 */
export default function ReportsPage() {
  const { t, i18n } = useTranslation('admin');
  const [days, setDays] = useState(DEFAULT_RANGE_DAYS);
  const coverage = useCoverage(rangeOf(days));
  const available = coverage.data?.available;
  const language = i18n.resolvedLanguage;
  const date = (iso: string | null) => (iso ? formatDate(iso, language, true) : t('reports.never'));
  const person = (row: { upn: string; displayName: string }) => (
    <Link to={ADMIN_ROUTES.user(row.upn)}>
      {row.displayName && row.displayName !== row.upn ? `${row.displayName} (${row.upn})` : row.upn}
    </Link>
  );
  const personColumn = { key: 'person', header: t('reports.columns.person'), cell: person };
  const limited = available && Object.values(available).some((a) => !a);
  return (
    <Page title={t('reports.title')} intro={<p>{t('reports.intro')}</p>}>
      {limited ? (
        <Alert role="note" type="info" showIcon title={t('reports.provider_limited_title')} description={t('reports.provider_limited')} />
      ) : null}
      <CoverageSection coverage={coverage} days={days} onDaysChange={setDays} />
      {available ? (
        <>
          <ReportListSection
            name="without-factor"
            available={available['without-factor']}
            rowKey={(r) => r.upn}
            columns={[
              personColumn,
              {
                key: 'account',
                header: t('reports.columns.account'),
                cell: (r) =>
                  r.provisioned ? t(`reports.status.${r.status ?? 'active'}`, { defaultValue: r.status }) : t('reports.not_provisioned'),
              },
              { key: 'seen', header: t('reports.columns.last_seen'), cell: (r) => date(r.lastSeenAt) },
            ]}
          />
          <ReportListSection
            name="locked"
            available={available.locked}
            rowKey={(r) => r.upn}
            columns={[
              personColumn,
              { key: 'status', header: t('reports.columns.status'), cell: (r) => t(`reports.status.${r.status}`) },
              { key: 'reason', header: t('reports.columns.reason'), cell: (r) => r.reason ?? '–' },
              {
                key: 'until',
                header: t('reports.columns.locked_until'),
                cell: (r) => (r.lockedUntil ? date(r.lockedUntil) : r.status === 'locked_out' ? t('reports.until_unlocked') : '–'),
              },
              { key: 'since', header: t('reports.columns.since'), cell: (r) => date(r.since) },
            ]}
          />
          <ReportListSection
            name="stale-devices"
            available={available['stale-devices']}
            rowKey={(r) => r.deviceId}
            columns={[
              personColumn,
              { key: 'device', header: t('reports.columns.device'), cell: (r) => r.name },
              { key: 'kind', header: t('reports.columns.kind'), cell: (r) => t(`reports.device_kind.${r.kind}`, { defaultValue: r.kind }) },
              { key: 'added', header: t('reports.columns.added'), cell: (r) => date(r.createdAt) },
              { key: 'used', header: t('reports.columns.last_used'), cell: (r) => date(r.lastUsedAt) },
            ]}
          />
          <ReportListSection
            name="bypass-codes"
            available={available['bypass-codes']}
            rowKey={(r) => r.id}
            columns={[
              personColumn,
              { key: 'by', header: t('reports.columns.created_by'), cell: (r) => r.createdBy },
              { key: 'created', header: t('reports.columns.created'), cell: (r) => date(r.createdAt) },
              { key: 'expires', header: t('reports.columns.expires'), cell: (r) => date(r.expiresAt) },
              { key: 'uses', header: t('reports.columns.uses_left'), cell: (r) => String(r.usesLeft) },
            ]}
          />
        </>
      ) : null}
      <NotificationOutboxSection />
    </Page>
  );
}
