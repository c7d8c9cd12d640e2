import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input } from 'antd';
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
import { TicketField } from './JustificationFields';

/**
 * "Verify, then issue" (the person is verified before their MFA is changed): which verification of this person by the caller is in force and
 * until when, or that one is needed before issuing codes, removing or resynchronising a device, the
 * lost-device wizard and enrolment passes. A Solution Administrator may act without one (recorded).
 */
export function VerificationInForce({ state }: { state: AdminVerificationState }) {
  const { t, i18n } = useTranslation('admin');
  const language = i18n.resolvedLanguage;
  const { current } = state;
  if (current) {
    return (
      <Alert
        role="status"
        type="success"
        showIcon
        className="before-list"
        title={t('verify_first.in_force_title')}
        description={t(current.ticket ? 'verify_first.in_force_body_ticket' : 'verify_first.in_force_body', {
          method: t(`verify_first.method.${current.method}`),
          ticket: current.ticket,
          time: formatTime(current.verifiedAt, language),
          until: formatTime(current.expiresAt, language),
        })}
      />
    );
  }
  return (
    <Alert
      role="status"
      type={state.required ? 'warning' : 'info'}
      showIcon
      className="before-list"
      title={t(state.required ? 'verify_first.needed_title' : 'verify_first.optional_title')}
      description={t(state.required ? 'verify_first.needed_body' : 'verify_first.optional_body', {
        minutes: Math.round(state.windowSeconds / 60),
      })}
    />
  );
}

interface ManualValues {
  method: AdminManualVerificationMethod;
  ticket: string;
  note?: string;
}

/** For a caller with no device left: record how they were verified, from a fixed list, with the ticket. */
export function ManualVerificationForm({ upn }: { upn: string }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<ManualValues>();
  const record = useVerifyManually(upn);
  const submit = (values: ManualValues) =>
    record.mutate(
      { method: values.method, ticket: values.ticket.trim(), ...(values.note?.trim() ? { note: values.note.trim() } : {}) },
      { onSuccess: () => form.resetFields(['note']) },
    );
  return (
    <>
      <p>{t('verify_first.manual_intro')}</p>
      <Form
        name="verify-manually"
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ method: ADMIN_MANUAL_VERIFICATION_METHODS[0], ticket: '', note: '' }}
        onFinish={submit}
        className="narrow-form"
      >
        <Form.Item name="method" label={t('verify_first.method_label')}>
          <NativeSelect options={ADMIN_MANUAL_VERIFICATION_METHODS.map((m) => ({ value: m, label: t(`verify_first.method.${m}`) }))} />
        </Form.Item>
        <TicketField />
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
