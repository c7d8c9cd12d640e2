import { useTranslation } from 'react-i18next';
import type { AuditStreamState } from '@mfa-portal/shared';
import { formatDate } from '../../../lib/ui/format';
import { Loading } from '../../../lib/ui/Loading';
import { useAuditStreams } from '../api/audit-streams';
import { AdminErrorAlert } from './AdminErrorAlert';
import { DataTable } from './DataTable';

/**
 * Audit to a SIEM, for Solution Administrators: for each stream (syslog over TLS, the signed webhook)
 * whether it is switched on and where to, what waits, the last delivery, the last error and the next
 * attempt. Delivery happens in the background and is retried with back-off, so a backlog while the
 * receiver is down is expected; it empties, in order, once the receiver answers again.
 */
export function AuditStreamsSection() {
  const { t, i18n } = useTranslation('admin');
  const streams = useAuditStreams();
  const language = i18n.resolvedLanguage;
  const date = (iso: string | null) => (iso ? formatDate(iso, language, true) : null);
  const data = streams.data;
  const anyOn = data?.streams.some((s) => s.enabled) ?? false;
  return (
    <section className="section" aria-labelledby="siem-heading">
      <h2 id="siem-heading">{t('siem.heading')}</h2>
      {streams.isPending ? <Loading label={t('siem.loading')} /> : null}
      {streams.isError ? <AdminErrorAlert error={streams.error} title={t('siem.failed')} onRetry={() => void streams.refetch()} /> : null}
      {data ? (
        <>
          <p>{anyOn ? t('siem.intro_on') : t('siem.intro_off')}</p>
          <DataTable<AuditStreamState>
            caption={t('siem.table')}
            rows={data.streams}
            rowKey={(s) => s.stream}
            columns={[
              { key: 'stream', header: t('siem.col_stream'), cell: (s) => t(`siem.stream.${s.stream}`) },
              {
                key: 'on',
                header: t('siem.col_on'),
                cell: (s) => (s.enabled ? t('siem.on', { destination: s.destination ?? '' }) : t('siem.off')),
              },
              {
                key: 'backlog',
                header: t('siem.col_backlog'),
                cell: (s) =>
                  s.backlog > 0 ? t('siem.backlog', { count: s.backlog, date: date(s.oldestPendingAt) ?? '–' }) : t('siem.backlog_none'),
              },
              {
                key: 'delivered',
                header: t('siem.col_delivered'),
                cell: (s) =>
                  s.lastDeliveredAt
                    ? t('siem.delivered', { date: date(s.lastDeliveredAt), id: s.lastDeliveredEventId ?? '–' })
                    : t('siem.never'),
              },
              {
                key: 'error',
                header: t('siem.col_error'),
                cell: (s) => (s.lastError ? t('siem.error', { error: s.lastError, date: date(s.lastErrorAt) ?? '–' }) : t('siem.no_error')),
              },
              {
                key: 'next',
                header: t('siem.col_next'),
                cell: (s) =>
                  s.enabled && s.backlog > 0
                    ? s.nextAttemptAt
                      ? t('siem.next_after_failures', { date: date(s.nextAttemptAt), count: s.failures })
                      : t('siem.next_now')
                    : '–',
              },
            ]}
          />
        </>
      ) : null}
    </section>
  );
}
