import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Alert } from 'antd';
import { useUser } from '../../../shell/contexts';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { ADMIN_ROUTES } from '../../../lib/main-routes';
import { useAdminUser } from '../api/get-user';
import { useLostDeviceProgress } from '../api/lost-device';
import { AdminErrorAlert } from '../components/AdminErrorAlert';
import { isDenyReason } from '../components/admin-errors';
import { callStorageKey, JustificationMemory } from '../components/justification-memory';
import { Wizard } from '../lost-device/Wizard';

/**
 * The lost-device wizard: verify the caller → remove the lost device → one single-use bypass code
 * valid at most 24 hours → guide them to enrol a new device → test it. Each step is an audit event on
 * the server, which also tells the wizard where it stands (see lost-device/wizard-state.ts).
 */
export function LostDevicePage() {
  const { t } = useTranslation('admin');
  const { user } = useUser();
  const upn = (useParams().upn ?? '').toLowerCase();
  const detail = useAdminUser(upn);
  const verification = detail.data?.verification;
  const allowed = detail.data ? detail.data.actions.delete_device.allowed && detail.data.actions.create_bypass_codes.allowed : false;
  const progress = useLostDeviceProgress(upn, { enabled: allowed });
  const title = t('wizard.title', { name: detail.data?.user.displayName || upn });
  const back = (
    <p className="after-alert">
      <Link to={ADMIN_ROUTES.user(upn)}>{t('wizard.back_to_user')}</Link>
    </p>
  );
  if (detail.isError)
    return (
      <Page title={title}>
        <AdminErrorAlert error={detail.error} title={t('user.failed', { upn })} onRetry={() => void detail.refetch()} />
        {back}
      </Page>
    );
  if (detail.data && !allowed) {
    const reason = detail.data.actions.delete_device.reason ?? detail.data.actions.create_bypass_codes.reason;
    return (
      <Page title={title}>
        <Alert
          role="note"
          type="warning"
          showIcon
          title={t('user.blocked_title')}
          description={isDenyReason(reason) ? t(`deny.${reason}`) : t('deny.unknown')}
        />
        {back}
      </Page>
    );
  }
  // The call's reason and ticket, typed on the user's page, carry on here (see JustificationMemory).
  return (
    <JustificationMemory
      key={upn}
      storageKey={callStorageKey(user?.upn ?? '', upn)}
      until={verification?.current?.expiresAt ?? null}
      windowSeconds={verification?.windowSeconds}
    >
      <Page title={title} intro={<p>{t('wizard.intro')}</p>} className="wizard">
        {detail.isPending || progress.isPending ? (
          <Loading label={t('wizard.loading')} />
        ) : progress.isError ? (
          <AdminErrorAlert error={progress.error} title={t('wizard.failed')} onRetry={() => void progress.refetch()} />
        ) : (
          <Wizard upn={upn} detail={detail.data} progress={progress.data} />
        )}
        {back}
      </Page>
    </JustificationMemory>
  );
}
