import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from 'antd';
import type { Campaign } from '@mfa-portal/shared';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { formatDate } from '../../../lib/ui/format';
import { useCampaigns, useEndCampaign } from '../api/campaigns';
import { AdminErrorAlert } from '../components/AdminErrorAlert';
import { CampaignForm } from '../components/CampaignForm';

/** "4 of 10 enrolled; 2 overdue, 1 put it off, 3 reminded": where the people of one campaign stand. */
export function ProgressWords({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('admin');
  const p = campaign.progress;
  const rest = (['overdue', 'snoozed', 'reminded', 'mailed', 'waiting'] as const)
    .filter((k) => p[k] > 0)
    .map((k) => t(`campaigns.stage.${k}_count`, { count: p[k] }));
  return (
    <>
      <div>{t('campaigns.enrolled_of', { enrolled: p.enrolled, count: p.inScope })}</div>
      {rest.length > 0 ? <div className="form-note">{rest.join(', ')}</div> : null}
    </>
  );
}

/**
 * Enrolment campaigns (Solution Administrators): each campaign with whom it asks, by when, and how far
 * they have got; start one (the form), end one after saying what that changes.
 */
export function CampaignsPage() {
  const { t, i18n } = useTranslation('admin');
  const campaigns = useCampaigns();
  const end = useEndCampaign();
  const [starting, setStarting] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const date = (iso: string) => formatDate(iso, i18n.resolvedLanguage, true);

  const finish = (text: string | null) => {
    setStarting(false);
    setConfirming(null);
    setDone(text);
    requestAnimationFrame(() => listHeading.current?.focus());
  };

  return (
    <Page title={t('campaigns.title')} intro={<p>{t('campaigns.intro')}</p>}>
      <div role="status" className="flash-region">
        {done ? <Alert type="success" showIcon title={done} /> : null}
      </div>
      {campaigns.data && !campaigns.data.emailEnabled ? (
        <Alert role="note" type="info" showIcon title={t('campaigns.no_email_title')} description={t('campaigns.no_email')} />
      ) : null}
      {starting ? (
        <CampaignForm onDone={(started) => finish(started ? t('campaigns.started', { name: started.target.name }) : null)} />
      ) : (
        <Button
          type="primary"
          onClick={() => {
            setDone(null);
            setStarting(true);
          }}
        >
          {t('campaigns.new')}
        </Button>
      )}

      <section className="section" aria-labelledby="campaigns-heading">
        <h2 id="campaigns-heading" ref={listHeading} tabIndex={-1}>
          {t('campaigns.list_heading')}
        </h2>
        {campaigns.isPending ? <Loading label={t('campaigns.loading')} /> : null}
        {campaigns.isError ? (
          <AdminErrorAlert error={campaigns.error} title={t('campaigns.load_failed')} onRetry={() => void campaigns.refetch()} />
        ) : null}
        {campaigns.data?.campaigns.length === 0 ? (
          <div className="empty-state">
            <p className="empty-state__title">{t('campaigns.empty_title')}</p>
            <p>{t('campaigns.empty_body')}</p>
          </div>
        ) : null}
        {campaigns.data && campaigns.data.campaigns.length > 0 ? (
          <div className="table-wrap" role="region" aria-label={t('campaigns.table_label')} tabIndex={0}>
            <table className="data-table">
              <caption className="visually-hidden">{t('campaigns.table_label')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('campaigns.col_target')}</th>
                  <th scope="col">{t('campaigns.col_deadline')}</th>
                  <th scope="col">{t('campaigns.col_progress')}</th>
                  <th scope="col">{t('campaigns.col_actions')}</th>
                </tr>
              </thead>
              <tbody>
                {campaigns.data.campaigns.map((c) => (
                  <tr key={c.id}>
                    <th scope="row">
                      <div>{c.target.name}</div>
                      <div className="form-note">
                        {t(`campaigns.target_${c.target.kind}`)} · {t(`campaigns.requirement_${c.requirement}_short`)}
                      </div>
                    </th>
                    <td>
                      <div>{date(c.deadline)}</div>
                      <div className="form-note">
                        {t('campaigns.settings_summary', {
                          reminders: c.maxReminders,
                          interval: c.reminderIntervalDays,
                          snoozes: c.maxSnoozes,
                        })}
                      </div>
                    </td>
                    <td>
                      <ProgressWords campaign={c} />
                    </td>
                    <td>
                      {c.state === 'ended' ? (
                        <span className="form-note">{t('campaigns.ended_on', { date: date(c.endedAt ?? c.deadline) })}</span>
                      ) : confirming === c.id ? (
                        <div className="unit-actions" role="group" aria-label={t('campaigns.end_confirm', { name: c.target.name })}>
                          <p>{t('campaigns.end_confirm', { name: c.target.name })}</p>
                          <Button
                            danger
                            autoFocus
                            loading={end.isPending}
                            onClick={() =>
                              void end.mutateAsync(c.id).then(
                                () => finish(t('campaigns.ended', { name: c.target.name })),
                                () => undefined,
                              )
                            }
                          >
                            {t('campaigns.end_yes')}
                          </Button>
                          <Button onClick={() => setConfirming(null)}>{t('campaigns.cancel')}</Button>
                          {end.isError ? <AdminErrorAlert error={end.error} title={t('campaigns.end_failed')} /> : null}
                        </div>
                      ) : (
                        <Button onClick={() => setConfirming(c.id)} aria-label={t('campaigns.end_named', { name: c.target.name })}>
                          {t('campaigns.end')}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </Page>
  );
}
