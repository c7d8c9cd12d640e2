import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Button } from 'antd';
import type { MyCampaign } from '@mfa-portal/shared';
import { MAIN_ROUTES } from '../../../lib/main-routes';
import { useCanChangeOwnMfa } from '../../../lib/self-service';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { formatDate } from '../../../lib/ui/format';
import { useFlash } from '../../../lib/ui/flash';
import { useMyCampaign, useSnoozeCampaign } from '../api/my-campaign';
import '../campaigns.css';

/** The words of the banner for one campaign: what is asked, by when, and how often it may still be put off. */
function BannerBody({ campaign, onSnooze, snoozing }: { campaign: MyCampaign; onSnooze: () => void; snoozing: boolean }) {
  const { t, i18n } = useTranslation('main');
  const deadline = formatDate(campaign.deadline, i18n.resolvedLanguage, true);
  const canSnooze = !campaign.overdue && campaign.snoozesLeft > 0;
  return (
    <>
      <h2 id="campaign-banner-heading" className="campaign-banner__title">
        {t(campaign.overdue ? 'campaign.title_overdue' : 'campaign.title', { deadline })}
      </h2>
      <p>{t(campaign.requirement === 'policy' ? 'campaign.body_policy' : 'campaign.body_device')}</p>
      <p className="campaign-banner__note">
        {campaign.overdue
          ? t('campaign.overdue')
          : canSnooze
            ? t('campaign.snoozes_left', { count: campaign.snoozesLeft, days: t('campaign.days', { count: campaign.snoozeDays }) })
            : t('campaign.no_snoozes_left')}
      </p>
      <div className="campaign-banner__actions">
        <Link to={MAIN_ROUTES.addDevice} className="button button--primary">
          {t('campaign.add_device')}
        </Link>
        {canSnooze ? (
          <Button onClick={onSnooze} loading={snoozing}>
            {t('campaign.snooze')}
          </Button>
        ) : null}
      </div>
    </>
  );
}

/**
 * After sign-in, on every page but "Add a device" itself: the enrolment campaign that asks the person
 * for a device they still lack, with its deadline, "Add a device", and "Remind me later" while they may
 * still put it off (the server counts and refuses past the limit). Gone once they have added one (the
 * banner is read again after every change to their devices).
 */
export function CampaignBanner() {
  const { t } = useTranslation('main');
  const { pathname } = useLocation();
  const canChange = useCanChangeOwnMfa();
  const mine = useMyCampaign({ enabled: canChange });
  const snooze = useSnoozeCampaign();
  const { showSuccess } = useFlash();
  const campaign = mine.data?.campaign ?? null;
  if (!campaign || pathname.startsWith(MAIN_ROUTES.addDevice)) return null;
  const onSnooze = () =>
    snooze.mutate(campaign.id, {
      onSuccess: () => {
        showSuccess(t('campaign.snoozed', { days: t('campaign.days', { count: campaign.snoozeDays }) }));
        // The button is gone with the banner: the page itself takes the focus.
        document.getElementById('main')?.focus();
      },
    });
  return (
    <section className={`campaign-banner${campaign.overdue ? ' campaign-banner--overdue' : ''}`} aria-labelledby="campaign-banner-heading">
      <BannerBody campaign={campaign} onSnooze={onSnooze} snoozing={snooze.isPending} />
      {snooze.isError ? <ErrorAlert error={snooze.error} /> : null}
    </section>
  );
}
