import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form, InputNumber } from 'antd';
import {
  ENROLMENT_PASS_MAX_LIFETIME_MINUTES,
  ENROLMENT_PASS_MAX_USES,
  type AdminUserDetail,
  type IssueEnrolmentPassResponse,
} from '@mfa-portal/shared';
import { CopyButton } from '../../../lib/ui/CopyButton';
import { formatDate } from '../../../lib/ui/format';
import {
  useEnrolmentPasses,
  useIssueEnrolmentPass,
  useRevokeEnrolmentPass,
  useRevokeUserBypassCodes,
  useSetAccountEnabled,
} from '../api/lifecycle';
import { AdminErrorAlert } from './AdminErrorAlert';
import { JustifiedActionDialog } from './JustifiedActionDialog';

type Dialog = 'disable' | 'enable' | 'revoke_codes' | 'issue_pass' | null;

/**
 * The account's lifecycle on a user's page: where it came from and when it changed, its
 * groups, disabling and re-enabling it with a reason, revoking its unused bypass codes, and
 * enrolment passes (issued with a reason, shown once, listed, revoked).
 */
export function AccountLifecyclePanel({
  upn,
  detail,
  gate,
  verifyFirst = null,
}: {
  upn: string;
  detail: AdminUserDetail;
  gate: (name: 'disable_account' | 'revoke_bypass_codes' | 'issue_enrolment_pass') => string | null;
  /** Why issuing a pass waits (verify, then issue: no verification of this person in force), or null. */
  verifyFirst?: string | null;
}) {
  const { t, i18n } = useTranslation('admin');
  const language = i18n.resolvedLanguage;
  const [dialog, setDialog] = useState<Dialog>(null);
  const [issued, setIssued] = useState<IssueEnrolmentPassResponse | null>(null);
  const setEnabled = useSetAccountEnabled(upn);
  const revokeCodes = useRevokeUserBypassCodes(upn);
  const issuePass = useIssueEnrolmentPass(upn);
  const revokePass = useRevokeEnrolmentPass(upn);
  const passGate = gate('issue_enrolment_pass');
  const passes = useEnrolmentPasses(upn, passGate === null);
  const { user, mfa } = detail;
  const provisioned = mfa.status !== 'not_provisioned';
  const close = () => setDialog(null);
  const livePasses = (passes.data?.passes ?? []).filter((p) => !p.revokedAt && p.usesLeft > 0 && Date.parse(p.expiresAt) > Date.now());

  return (
    <section className="section" aria-labelledby="lifecycle-heading">
      <h2 id="lifecycle-heading">{t('lifecycle.heading')}</h2>
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
            <Button onClick={() => setDialog('revoke_codes')} disabled={gate('revoke_bypass_codes') !== null}>
              {t('lifecycle.revoke_codes', { count: detail.bypassCodes.length })}
            </Button>
          ) : null}
          <Button onClick={() => setDialog('issue_pass')} disabled={passGate !== null || !!verifyFirst}>
            {t('lifecycle.issue_pass')}
          </Button>
          {verifyFirst && passGate === null ? (
            <p className="form-note">
              <a href="#verify-heading">{t('verify_first.step_link')}</a> {verifyFirst}
            </p>
          ) : null}
        </div>
      ) : null}

      {issued ? (
        <div className="panel activation-result" role="status">
          <p>{t('lifecycle.pass_once', { upn, date: formatDate(issued.info.expiresAt, language, true), count: issued.info.maxUses })}</p>
          <p>
            <code className="activation-link">{issued.pass}</code>
          </p>
          <CopyButton text={issued.pass} label={t('lifecycle.pass_copy')} />
          <Button onClick={() => setIssued(null)}>{t('lifecycle.pass_done')}</Button>
        </div>
      ) : null}

      {livePasses.length > 0 ? (
        <ul className="admin-pass-list" aria-label={t('lifecycle.passes_label')}>
          {livePasses.map((p) => (
            <li key={p.id}>
              {t('lifecycle.pass_item', { date: formatDate(p.expiresAt, language, true), left: p.usesLeft, by: p.createdBy })}{' '}
              <Button
                size="small"
                danger
                onClick={() => void revokePass.mutateAsync(p.id).catch(() => undefined)}
                aria-label={t('lifecycle.pass_revoke_named', { date: formatDate(p.expiresAt, language, true) })}
              >
                {t('lifecycle.pass_revoke')}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {revokePass.isError ? <AdminErrorAlert error={revokePass.error} title={t('lifecycle.pass_revoke_failed')} /> : null}

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
      {dialog === 'issue_pass' ? (
        <JustifiedActionDialog<{ uses: number; lifetimeMinutes: number }>
          open
          name="admin-issue-pass"
          title={t('lifecycle.issue_pass_title', { upn })}
          intro={<p>{t('lifecycle.issue_pass_body')}</p>}
          initialValues={{ uses: 1, lifetimeMinutes: 60 }}
          fields={
            <>
              <Form.Item
                name="uses"
                label={t('lifecycle.pass_uses')}
                rules={[{ required: true, type: 'integer', min: 1, max: ENROLMENT_PASS_MAX_USES }]}
              >
                <InputNumber min={1} max={ENROLMENT_PASS_MAX_USES} data-autofocus />
              </Form.Item>
              <Form.Item
                name="lifetimeMinutes"
                label={t('lifecycle.pass_lifetime')}
                extra={t('lifecycle.pass_lifetime_help')}
                rules={[{ required: true, type: 'integer', min: 5, max: ENROLMENT_PASS_MAX_LIFETIME_MINUTES }]}
              >
                <InputNumber min={5} max={ENROLMENT_PASS_MAX_LIFETIME_MINUTES} />
              </Form.Item>
            </>
          }
          submitLabel={t('lifecycle.issue_pass_submit')}
          submittingLabel={t('lifecycle.working')}
          pending={issuePass.isPending}
          error={issuePass.error}
          failedTitle={t('lifecycle.failed')}
          onClose={close}
          onSubmit={async (values) => {
            setIssued(
              await issuePass.mutateAsync({ ...values, uses: Number(values.uses), lifetimeMinutes: Number(values.lifetimeMinutes) }),
            );
            close();
          }}
        />
      ) : null}
    </section>
  );
}
