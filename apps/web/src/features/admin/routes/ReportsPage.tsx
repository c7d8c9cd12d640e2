import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from 'antd';
import type { ReportListName } from '@mfa-portal/shared';
import { ADMIN_ROUTES } from '../../../lib/main-routes';
import { usePortalRole } from '../../../lib/roles';
import { Page } from '../../../lib/ui/Page';
import { formatDate } from '../../../lib/ui/format';
import { useCoverage } from '../api/reports';
import { AuditStreamsSection } from '../components/AuditStreamsSection';
import { CampaignProgressSection } from '../components/CampaignProgressSection';
import { CoverageSection, DEFAULT_RANGE_DAYS, rangeOf } from '../components/CoverageSection';
import { NotificationOutboxSection } from '../components/NotificationOutboxSection';
import { ReachNote } from '../components/ReachNote';
import { ReportListSection } from '../components/ReportListSection';

/**
 * Reports for Solution Administrators: enrolment coverage now and over time, and the lists
 * that need attention (staff without a device, locked or disabled accounts, stale devices, bypass
 * codes in force), each downloadable as CSV. Loaded on demand (its chart library in a chunk of its own).
 */
export default function ReportsPage() {
  const { t, i18n } = useTranslation('admin');
  // A helpdesk member limited to administrative units reads their units' lists and figures only.
  const organisation = usePortalRole() === 'solution_admin';
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
  // Counted with the figures above, so the two agree (null when those are an earlier snapshot's).
  const totals = coverage.data?.totals ?? null;
  const total = (name: ReportListName) => {
    const count = totals?.[name];
    // None: the list's own empty state says so.
    if (!count) return null;
    switch (name) {
      case 'without-factor':
        return t('reports.without_factor.total', { count });
      case 'locked':
        return t('reports.locked.total', { count });
      case 'stale-devices':
        return t('reports.stale_devices.total', { count });
      case 'bypass-codes':
        return t('reports.bypass_codes.total', {
          count,
          people: t('reports.bypass_codes.people', { count: totals?.bypassCodeHolders ?? 0 }),
        });
    }
  };
  return (
    <Page
      title={t('reports.title')}
      intro={
        <>
          <p>{t('reports.intro')}</p>
          <ReachNote />
        </>
      }
    >
      {limited ? (
        <Alert role="note" type="info" showIcon title={t('reports.provider_limited_title')} description={t('reports.provider_limited')} />
      ) : null}
      <CoverageSection coverage={coverage} days={days} onDaysChange={setDays} />
      {available ? (
        <>
          <ReportListSection
            name="without-factor"
            available={available['without-factor']}
            total={total('without-factor')}
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
            total={total('locked')}
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
            total={total('stale-devices')}
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
            total={total('bypass-codes')}
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
      {organisation ? (
        <>
          <CampaignProgressSection />
          <NotificationOutboxSection />
          <AuditStreamsSection />
        </>
      ) : null}
    </Page>
  );
}
