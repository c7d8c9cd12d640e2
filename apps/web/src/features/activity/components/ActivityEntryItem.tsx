import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import type { ActivityEntry } from '@mfa-portal/shared';
import { formatDate, formatTime } from '../../../lib/ui/format';
import { describeEntry } from './describe-entry';

/**
 * One entry of the activity: what happened in a sentence, when, where and from which browser, how it
 * ended when it did not simply work, its steps behind "Details" (a disclosure), and one
 * "Doesn't look like you?" for the whole entry.
 */
export function ActivityEntryItem({ entry, onReport }: { entry: ActivityEntry; onReport: (what: string) => void }) {
  const { t, i18n } = useTranslation(['activity', 'errors']);
  const [open, setOpen] = useState(false);
  const stepsId = useId();
  const whatId = useId();
  const d = describeEntry(entry, t, (key, options) => i18n.exists(key, options));
  const language = i18n.resolvedLanguage;
  return (
    <li className={`timeline__item timeline__item--${entry.outcome}`}>
      <p className="timeline__what" id={whatId}>
        {d.what}
        {entry.outcome === 'success' ? null : (
          <>
            {' '}
            <span className={entry.outcome === 'failure' ? 'badge badge--danger' : 'badge badge--neutral'}>
              {t(`activity:outcome.${entry.outcome}`)}
            </span>
          </>
        )}
      </p>
      <p className="timeline__meta">
        <time dateTime={entry.occurredAt}>{formatDate(entry.occurredAt, language, true)}</time>
        {[d.place, d.browser]
          .filter((part): part is string => !!part)
          .map((part) => (
            <span key={part}>
              <span aria-hidden="true"> · </span>
              {part}
            </span>
          ))}
      </p>
      {d.reason ? <p className="timeline__reason">{t('activity:reason', { reason: d.reason })}</p> : null}
      <div className="timeline__actions">
        <button
          type="button"
          className="timeline__toggle"
          aria-expanded={open}
          aria-controls={stepsId}
          aria-describedby={whatId}
          onClick={() => setOpen((was) => !was)}
        >
          {t('activity:details')}
        </button>
        {entry.reportable ? (
          <Button size="small" aria-label={t('activity:report.button_label', { what: d.what })} onClick={() => onReport(d.what)}>
            {t('activity:report.button')}
          </Button>
        ) : null}
      </div>
      <div id={stepsId} hidden={!open}>
        {open ? (
          <ol className="timeline__steps" aria-label={t('activity:steps_label')}>
            {d.steps.map((step) => (
              <li key={step.id} className={`timeline__step timeline__step--${step.outcome}`}>
                <time dateTime={step.at}>{formatTime(step.at, language)}</time> {step.text}
                {step.reason ? <span className="timeline__step-reason"> ({step.reason})</span> : null}
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </li>
  );
}
