import { useTranslation } from 'react-i18next';
import type { ActivityEvent } from '@mfa-portal/shared';
import { formatDate } from '../../../lib/ui/format';
import { SignInName } from './SignInName';

/** A detail of an event as text, when it is a plain value. */
function detail(event: ActivityEvent, name: string): string | null {
  const value = event.details?.[name];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
}

/**
 * Audit events as a table for administrators: when, what (in words when known, always with its code),
 * who (and the role they acted in), about whom, the outcome (with the reason of a failure) and the
 * reason and ticket given. Scrolls sideways on narrow screens (a focusable, labelled region).
 */
export function EventTable({
  events,
  caption,
  showTarget = false,
  busy = false,
}: {
  events: ActivityEvent[];
  caption: string;
  showTarget?: boolean;
  /** The rows are the last search's, kept on screen while the next one's are on their way. */
  busy?: boolean;
}) {
  const { t, i18n } = useTranslation(['admin', 'errors']);
  const language = i18n.resolvedLanguage;
  return (
    <div className="table-wrap" role="region" aria-label={caption} aria-busy={busy || undefined} tabIndex={0}>
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('events.when')}</th>
            <th scope="col">{t('events.what')}</th>
            <th scope="col">{t('events.who')}</th>
            {showTarget ? <th scope="col">{t('events.target')}</th> : null}
            <th scope="col">{t('events.outcome')}</th>
            <th scope="col">{t('events.details')}</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => {
            // Flat keys (`admin__user__unlock`): an action is never read as a path into nested texts.
            const labelKey = `admin:event_label.${event.action.replaceAll('.', '__')}`;
            const label = i18n.exists(labelKey) ? t(labelKey) : null;
            const role = detail(event, 'role');
            const reason = detail(event, 'reason');
            const ticket = detail(event, 'ticket');
            const failure = event.outcome === 'failure' && event.reason ? event.reason : null;
            const ok = event.outcome === 'success';
            return (
              <tr key={event.id}>
                <td>
                  <time dateTime={event.occurredAt}>{formatDate(event.occurredAt, language, true)}</time>
                </td>
                <td>
                  {label ? <span className="event-label">{label}</span> : null}
                  <code className="event-code">{event.action}</code>
                </td>
                <td>
                  {event.actorUpn ? <SignInName value={event.actorUpn} /> : t('events.system')}
                  {role ? <span className="cell-note">{t(`events.role.${role}`, { defaultValue: role })}</span> : null}
                </td>
                {showTarget ? <td>{event.targetUpn ? <SignInName value={event.targetUpn} /> : '–'}</td> : null}
                <td>
                  <span className={ok ? 'badge badge--ok' : 'badge badge--danger'}>{ok ? t('events.success') : t('events.failure')}</span>
                  {failure ? (
                    <span className="cell-note">{i18n.exists(`errors:${failure}`) ? t(`errors:${failure}`) : failure}</span>
                  ) : null}
                </td>
                <td>
                  {reason ? <span className="cell-line">{t('events.reason', { reason })}</span> : null}
                  {ticket ? <span className="cell-line">{t('events.ticket', { ticket })}</span> : null}
                  {!reason && !ticket ? '–' : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
