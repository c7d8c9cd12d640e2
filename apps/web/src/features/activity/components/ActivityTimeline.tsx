import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import type { ActivityEvent } from '@mfa-portal/shared';
import { useSettings, useUser } from '../../../shell/contexts';
import { formatDate } from '../../../lib/ui/format';
import { describeEvent } from './describe-event';
import { ReportEventDialog } from './ReportEventDialog';

/** "Firefox 128 on Windows 10 · 10.1.2.3 (Head office) · passcode": where an event came from, when known. */
function clientLine(event: ActivityEvent, t: (key: string, values?: Record<string, string>) => string): string | null {
  const c = event.client;
  if (!c) return null;
  const parts = [
    c.browser && c.os ? t('activity:client.browser_on_os', { browser: c.browser, os: c.os }) : (c.browser ?? c.os),
    c.address ? (c.location ? t('activity:client.address_at', { address: c.address, location: c.location }) : c.address) : null,
    c.method ? t('activity:client.method', { method: c.method }) : null,
  ].filter((p): p is string => !!p);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** Events newest first, as an ordered list: what happened, who did it, when, and whether it worked. */
export function ActivityTimeline({ events }: { events: ActivityEvent[] }) {
  const { t, i18n } = useTranslation(['activity', 'errors']);
  const { user } = useUser();
  const { restrictedRoles } = useSettings().apiInfo;
  const [reporting, setReporting] = useState<{ id: string; what: string } | null>(null);
  return (
    <>
      <ol className="timeline">
        {events.map((event) => {
          const d = describeEvent(event, t, (key, options) => i18n.exists(key, options), user?.upn, restrictedRoles);
          const ok = event.outcome === 'success';
          return (
            <li key={event.id} className={`timeline__item timeline__item--${event.outcome}`}>
              <p className="timeline__what">{d.what}</p>
              <p className="timeline__meta">
                <time dateTime={event.occurredAt}>{formatDate(event.occurredAt, i18n.resolvedLanguage, true)}</time>
                <span aria-hidden="true"> · </span>
                <span>{t('activity:by', { who: d.who })}</span>{' '}
                <span className={ok ? 'badge badge--ok' : 'badge badge--danger'}>
                  {ok ? t('activity:outcome.success') : t('activity:outcome.failure')}
                </span>
                {d.bySomeoneElse ? (
                  <>
                    {' '}
                    <span className="badge badge--info">{t('activity:someone_else')}</span>
                  </>
                ) : null}
              </p>
              {d.reason ? <p className="timeline__reason">{t('activity:reason', { reason: d.reason })}</p> : null}
              {clientLine(event, t) ? <p className="timeline__client">{clientLine(event, t)}</p> : null}
              {event.action !== 'activity.report' ? (
                <Button
                  size="small"
                  className="timeline__report"
                  aria-label={t('activity:report.button_label', { what: d.what })}
                  onClick={() => setReporting({ id: event.id, what: d.what })}
                >
                  {t('activity:report.button')}
                </Button>
              ) : null}
            </li>
          );
        })}
      </ol>
      <ReportEventDialog eventId={reporting?.id ?? null} what={reporting?.what ?? ''} onClose={() => setReporting(null)} />
    </>
  );
}
