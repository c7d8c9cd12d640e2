import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import type { AdminUserDetail } from '@mfa-portal/shared';
import { formatDate } from '../../../lib/ui/format';
import { useRevokeUserBypassCodes, useSetAccountEnabled } from '../api/lifecycle';
import { JustifiedActionDialog } from './JustifiedActionDialog';

type Dialog = 'disable' | 'enable' | 'revoke_codes' | null;

/**
 * The account itself, last on a user's page and apart from the call's actions: where it came from and
 * when it changed, its groups, and the actions that take something away from the person (disabling the
 * account, revoking their unused bypass codes) or give it back (enabling it again), each with a reason.
 */
export function AccountLifecyclePanel({
  upn,
  detail,
  gate,
}: {
  upn: string;
  detail: AdminUserDetail;
  gate: (name: 'disable_account' | 'revoke_bypass_codes') => string | null;
}) {
  const { t, i18n } = useTranslation('admin');
  const language = i18n.resolvedLanguage;
  const [dialog, setDialog] = useState<Dialog>(null);
  const setEnabled = useSetAccountEnabled(upn);
  const revokeCodes = useRevokeUserBypassCodes(upn);
  const { user, mfa } = detail;
  const provisioned = mfa.status !== 'not_provisioned';
  const close = () => setDialog(null);

  return (
    <section className="section account-section" aria-labelledby="lifecycle-heading">
      <div className="section__header">
        <h2 id="lifecycle-heading">{t('lifecycle.heading')}</h2>
        {provisioned ? (
          <div className="actions">
            {mfa.status === 'disabled' ? (
              <Button onClick={() => setDialog('enable')} disabled={gate('disable_account') !== null}>
                {t('lifecycle.enable')}
              </Button>
            ) : (
              <Button danger onClick={() => setDialog('disable')} disabled={gate('disable_account') !== null}>
                {t('lifecycle.disable')}
              </Button>
            )}
            {detail.bypassCodes.length > 0 ? (
              <Button danger onClick={() => setDialog('revoke_codes')} disabled={gate('revoke_bypass_codes') !== null}>
                {t('lifecycle.revoke_codes', { count: detail.bypassCodes.length })}
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      <dl className="facts admin-facts">
        <div>
          <dt>{t('lifecycle.source')}</dt>
          <dd>{t(`lifecycle.source_name.${user.source ?? 'unknown'}`)}</dd>
        </div>
        <div>
          <dt>{t('lifecycle.created')}</dt>
          <dd>{user.createdAt ? formatDate(user.createdAt, language, true) : '–'}</dd>
        </div>
        <div>
          <dt>{t('lifecycle.changed')}</dt>
          <dd>{user.updatedAt ? formatDate(user.updatedAt, language, true) : '–'}</dd>
        </div>
        <div>
          <dt>{t('lifecycle.groups')}</dt>
          <dd>{user.groups?.length ? user.groups.join(', ') : t('lifecycle.no_groups')}</dd>
        </div>
      </dl>

      {dialog === 'disable' || dialog === 'enable' ? (
        <JustifiedActionDialog
          open
          name={`admin-${dialog}`}
          title={t(`lifecycle.${dialog}_title`, { upn })}
          intro={<p>{t(`lifecycle.${dialog}_body`)}</p>}
          submitLabel={t(`lifecycle.${dialog}`)}
          submittingLabel={t('lifecycle.working')}
          danger={dialog === 'disable'}
          pending={setEnabled.isPending}
          error={setEnabled.error}
          failedTitle={t('lifecycle.failed')}
          onClose={close}
          onSubmit={async (values) => {
            await setEnabled.mutateAsync({ enabled: dialog === 'enable', body: values });
            close();
          }}
        />
      ) : null}
      {dialog === 'revoke_codes' ? (
        <JustifiedActionDialog
          open
          name="admin-revoke-codes"
          title={t('lifecycle.revoke_codes_title', { upn })}
          intro={<p>{t('lifecycle.revoke_codes_body')}</p>}
          submitLabel={t('lifecycle.revoke_codes_submit')}
          submittingLabel={t('lifecycle.working')}
          danger
          pending={revokeCodes.isPending}
          error={revokeCodes.error}
          failedTitle={t('lifecycle.failed')}
          onClose={close}
          onSubmit={async (values) => {
            await revokeCodes.mutateAsync(values);
            close();
          }}
        />
      ) : null}
    </section>
  );
}
