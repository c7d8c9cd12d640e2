import { useTranslation } from 'react-i18next';
import type { ActivityEvent } from '@mfa-portal/shared';
import { useUser } from '../../../shell/contexts';
import { formatDate } from '../../../lib/ui/format';
import { describeEvent } from './describe-event';

/** Events newest first, as an ordered list: what happened, who did it, when, and whether it worked. */
export function ActivityTimeline({ events }: { events: ActivityEvent[] }) {
  const { t, i18n } = useTranslation(['activity', 'errors']);
  const { user } = useUser();
  return (
    <ol className="timeline">
      {events.map((event) => {
        const d = describeEvent(event, t, (key, options) => i18n.exists(key, options), user?.upn);
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
          </li>
        );
      })}
    </ol>
  );
}
