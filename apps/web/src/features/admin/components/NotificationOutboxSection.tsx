import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/ui/format';
import { Loading } from '../../../lib/ui/Loading';
import { useNotificationOutbox } from '../api/notifications';
import { AdminErrorAlert } from './AdminErrorAlert';
import { DataTable } from './DataTable';

/**
 * The security e-mail outbox, for Solution Administrators: whether e-mail is switched on,
 * how many messages wait, were sent or failed, and the latest ones (what, to whom, attempts and the last
 * error), never their text. Sending happens in the background; a message that fails is retried with
 * back-off, so "waiting" after a mail server outage is expected.
 */
export function NotificationOutboxSection() {
  const { t, i18n } = useTranslation('admin');
  const outbox = useNotificationOutbox();
  const language = i18n.resolvedLanguage;
  const date = (iso: string | null) => (iso ? formatDate(iso, language, true) : '–');
  const data = outbox.data;
  return (
    <section className="section" aria-labelledby="outbox-heading">
      <h2 id="outbox-heading">{t('outbox.heading')}</h2>
      {outbox.isPending ? <Loading label={t('outbox.loading')} /> : null}
      {outbox.isError ? <AdminErrorAlert error={outbox.error} title={t('outbox.failed')} onRetry={() => void outbox.refetch()} /> : null}
      {data ? (
        <>
          <p>{data.enabled ? t('outbox.enabled') : t('outbox.disabled')}</p>
          <dl className="facts admin-facts">
            {(['pending', 'sent', 'failed'] as const).map((state) => (
              <div key={state}>
                <dt>{t(`outbox.state.${state}`)}</dt>
                <dd>{data.counts[state]}</dd>
              </div>
            ))}
          </dl>
          {data.messages.length === 0 ? (
            <p>{t('outbox.none')}</p>
          ) : (
            <DataTable
              caption={t('outbox.table')}
              rows={data.messages}
              rowKey={(m) => m.id}
              columns={[
                { key: 'created', header: t('outbox.col_created'), cell: (m) => date(m.createdAt) },
                { key: 'kind', header: t('outbox.col_kind'), cell: (m) => t(`outbox.kind.${m.kind}`, { defaultValue: m.kind }) },
                {
                  key: 'to',
                  header: t('outbox.col_to'),
                  cell: (m) => (m.toSecurityContact ? t('outbox.to_security_contact') : (m.targetUpn ?? '–')),
                },
                {
                  key: 'state',
                  header: t('outbox.col_state'),
                  cell: (m) => (
                    <>
                      {m.state === 'sent'
                        ? t('outbox.sent_at', { date: date(m.sentAt) })
                        : m.state === 'pending'
                          ? t('outbox.pending_next', { date: date(m.nextAttemptAt), count: m.attempts })
                          : t('outbox.failed_after', { count: m.attempts })}
                      {m.lastError && m.state !== 'sent' ? (
                        <span className="outbox-error">{t('outbox.last_error', { error: m.lastError })}</span>
                      ) : null}
                    </>
                  ),
                },
              ]}
            />
          )}
        </>
      ) : null}
    </section>
  );
}
