import { useTranslation } from 'react-i18next';
import { Button, Form, InputNumber } from 'antd';
import { ENROLMENT_PASS_MAX_LIFETIME_MINUTES, ENROLMENT_PASS_MAX_USES, type IssueEnrolmentPassResponse } from '@mfa-portal/shared';
import { CopyButton } from '../../../lib/ui/CopyButton';
import { formatDate } from '../../../lib/ui/format';
import { useEnrolmentPasses, useIssueEnrolmentPass, useRevokeEnrolmentPass } from '../api/lifecycle';
import { AdminErrorAlert } from './AdminErrorAlert';
import { JustifiedActionDialog } from './JustifiedActionDialog';

/** Issuing an enrolment pass (1 to 10 uses, at most 8 hours) with the reason and ticket. */
export function EnrolmentPassDialog({
  upn,
  onClose,
  onIssued,
}: {
  upn: string;
  onClose: () => void;
  onIssued: (issued: IssueEnrolmentPassResponse) => void;
}) {
  const { t } = useTranslation('admin');
  const issuePass = useIssueEnrolmentPass(upn);
  return (
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
      onClose={onClose}
      onSubmit={async (values) => {
        onIssued(await issuePass.mutateAsync({ ...values, uses: Number(values.uses), lifetimeMinutes: Number(values.lifetimeMinutes) }));
        onClose();
      }}
    />
  );
}

/** A pass just issued: shown once, to copy and pass on. */
export function IssuedEnrolmentPass({ upn, issued, onDone }: { upn: string; issued: IssueEnrolmentPassResponse; onDone: () => void }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <div className="panel activation-result" role="status">
      <p>
        {t('lifecycle.pass_once', {
          upn,
          date: formatDate(issued.info.expiresAt, i18n.resolvedLanguage, true),
          count: issued.info.maxUses,
        })}
      </p>
      <p>
        <code className="activation-link">{issued.pass}</code>
      </p>
      <CopyButton text={issued.pass} label={t('lifecycle.pass_copy')} />
      <Button onClick={onDone}>{t('lifecycle.pass_done')}</Button>
    </div>
  );
}

/** The user's enrolment passes still valid (metadata only), each revocable. */
export function EnrolmentPassList({ upn, enabled }: { upn: string; enabled: boolean }) {
  const { t, i18n } = useTranslation('admin');
  const language = i18n.resolvedLanguage;
  const passes = useEnrolmentPasses(upn, enabled);
  const revokePass = useRevokeEnrolmentPass(upn);
  const live = (passes.data?.passes ?? []).filter((p) => !p.revokedAt && p.usesLeft > 0 && Date.parse(p.expiresAt) > Date.now());
  return (
    <>
      {live.length > 0 ? (
        <ul className="admin-pass-list" aria-label={t('lifecycle.passes_label')}>
          {live.map((p) => (
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
    </>
  );
}
