import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActivityEntry } from '@mfa-portal/shared';
import { ActivityEntryItem } from './ActivityEntryItem';
import { ReportEventDialog } from './ReportEventDialog';

/** The entries, newest first, as an ordered list; "Doesn't look like you?" opens the one report dialog. */
export function ActivityTimeline({ entries }: { entries: ActivityEntry[] }) {
  const { t } = useTranslation('activity');
  const [reporting, setReporting] = useState<{ id: string; what: string } | null>(null);
  return (
    <>
      <ol className="timeline" aria-label={t('list_label')}>
        {entries.map((entry) => (
          <ActivityEntryItem key={entry.id} entry={entry} onReport={(what) => setReporting({ id: entry.id, what })} />
        ))}
      </ol>
      <ReportEventDialog eventId={reporting?.id ?? null} what={reporting?.what ?? ''} onClose={() => setReporting(null)} />
    </>
  );
}
