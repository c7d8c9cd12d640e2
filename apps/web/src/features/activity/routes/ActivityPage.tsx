import { useTranslation } from 'react-i18next';
import { ServiceDeskContact } from '../../../shell/components/ServiceDeskContact';
import { Button } from 'antd';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useActivity } from '../api/get-activity';
import { ActivityTimeline } from '../components/ActivityTimeline';
import '../activity.css';

/** Everything recorded about the user's account (their sign-ins, their changes, the service desk's), newest first. */
export function ActivityPage() {
  const { t } = useTranslation('activity');
  const activity = useActivity();
  const entries = activity.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <Page
      title={t('title')}
      intro={
        <>
          <p>{t('intro')}</p>
          <ServiceDeskContact />
        </>
      }
    >
      {activity.isPending ? (
        <Loading label={t('loading')} />
      ) : activity.isError && entries.length === 0 ? (
        <ErrorAlert error={activity.error} title={t('failed')} onRetry={() => void activity.refetch()} />
      ) : entries.length === 0 ? (
        <div className="empty-state">
          <p className="empty-state__title">{t('empty_title')}</p>
          <p>{t('empty_body')}</p>
        </div>
      ) : (
        <>
          <ActivityTimeline entries={entries} />
          {activity.isFetchNextPageError ? <ErrorAlert error={activity.error} title={t('more_failed')} /> : null}
          {activity.hasNextPage ? (
            <Button onClick={() => void activity.fetchNextPage()} loading={activity.isFetchingNextPage} className="after-list">
              {activity.isFetchingNextPage ? t('loading_more') : t('load_more')}
            </Button>
          ) : (
            <p className="form-note">{t('end')}</p>
          )}
        </>
      )}
    </Page>
  );
}
