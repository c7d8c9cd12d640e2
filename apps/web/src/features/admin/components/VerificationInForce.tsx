import { useTranslation } from 'react-i18next';
import { Button, Form, Input } from 'antd';
import {
  ADMIN_MANUAL_VERIFICATION_METHODS,
  ADMIN_REASON_MAX_LENGTH,
  type AdminManualVerificationMethod,
  type AdminVerificationState,
} from '@mfa-portal/shared';
import { formatTime } from '../../../lib/ui/format';
import { NativeSelect } from '../../../lib/ui/NativeSelect';
import { useVerifyManually } from '../api/verify-manually';
import { AdminErrorAlert } from './AdminErrorAlert';

/**
 * "Verify, then issue" (the person is verified before their MFA is changed), in one line: which
 * verification of this person by the caller is in force and until when ("Verified by code at 10:42,
 * until 10:57"), or that there is none yet. A Solution Administrator may act without one (recorded).
 * Rendered inside the page's one live region, so a new verification is announced once.
 */
export function VerificationStatus({ state }: { state: AdminVerificationState }) {
  const { t, i18n } = useTranslation('admin');
  const language = i18n.resolvedLanguage;
  const { current } = state;
  if (current) {
    const how =
      current.method === 'passcode' || current.method === 'push'
        ? t(`verify.summary_method.${current.method}`)
        : t('verify.summary_method.manual', { how: t(`verify_first.method.${current.method}`) });
    return (
      <p className="verify-summary__text">
        <span className="verify-summary__mark" aria-hidden="true">
          ✓
        </span>{' '}
        {t(current.ticket ? 'verify.summary_ticket' : 'verify.summary', {
          how,
          ticket: current.ticket,
          time: formatTime(current.verifiedAt, language),
          until: formatTime(current.expiresAt, language),
        })}
      </p>
    );
  }
  return (
    <p className="verify-summary__text verify-summary__text--none">
      {state.required
        ? t('verify.not_yet_window', { minutes: Math.round(state.windowSeconds / 60) })
        : t('verify_first.optional_body', { minutes: Math.round(state.windowSeconds / 60) })}
    </p>
  );
}

interface ManualValues {
  /** Empty until chosen: nothing is picked for the administrator. */
  method: AdminManualVerificationMethod | '';
  note?: string;
}

/**
 * For a caller with no device left: record how they were verified, from a fixed list. The ticket is
 * the call's (typed once, above): `ticketOfCall` answers it, or null after pointing at what is missing.
 */
export function ManualVerificationForm({ upn, ticketOfCall }: { upn: string; ticketOfCall: () => Promise<string | null> }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<ManualValues>();
  const record = useVerifyManually(upn);
  const submit = async (values: ManualValues) => {
    const ticket = await ticketOfCall();
    if (!ticket || !values.method) return;
    record.mutate(
      { method: values.method, ticket, ...(values.note?.trim() ? { note: values.note.trim() } : {}) },
      { onSuccess: () => form.resetFields(['note']) },
    );
  };
  return (
    <>
      <p>{t('verify_first.manual_intro')}</p>
      <Form
        name="verify-manually"
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ method: '', note: '' }}
        onFinish={(values) => void submit(values)}
        className="narrow-form"
      >
        <Form.Item
          name="method"
          label={t('verify_first.method_label')}
          rules={[{ required: true, message: t('verify_first.method_required') }]}
        >
          <NativeSelect
            options={[
              { value: '', label: t('verify_first.method_choose') },
              ...ADMIN_MANUAL_VERIFICATION_METHODS.map((m) => ({ value: m, label: t(`verify_first.method.${m}`) })),
            ]}
          />
        </Form.Item>
        <Form.Item name="note" label={t('verify_first.note_label')} extra={t('verify_first.note_help')}>
          <Input maxLength={ADMIN_REASON_MAX_LENGTH} autoComplete="off" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={record.isPending}>
          {t('verify_first.manual_submit')}
        </Button>
      </Form>
      {record.error ? <AdminErrorAlert error={record.error} title={t('verify_first.manual_failed')} className="after-form" /> : null}
    </>
  );
}
