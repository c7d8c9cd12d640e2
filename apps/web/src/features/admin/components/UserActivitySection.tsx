import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import type { ActivityEvent } from '@mfa-portal/shared';
import { EventTable } from './EventTable';

/**
 * The latest events about the user, folded until asked for: during a call the page stays short (the
 * check's own result is said in "Verify the caller"), and the events are one press away (a disclosure
 * button: the focus stays on it).
 */
export function UserActivitySection({ upn, events }: { upn: string; events: ActivityEvent[] }) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState(false);
  return (
    <section className="section" aria-labelledby="activity-heading">
      <div className="section__header">
        <h2 id="activity-heading">{t('user.activity_heading')}</h2>
        {events.length === 0 ? null : (
          <Button aria-expanded={open} aria-controls="activity-events" onClick={() => setOpen((o) => !o)}>
            {open ? t('user.activity_hide') : t('user.activity_show', { count: events.length })}
          </Button>
        )}
      </div>
      {events.length === 0 ? <p>{t('user.activity_empty')}</p> : null}
      <div id="activity-events">
        {open ? <EventTable events={events} caption={t('user.activity_caption', { upn })} showTarget /> : null}
      </div>
    </section>
  );
}
