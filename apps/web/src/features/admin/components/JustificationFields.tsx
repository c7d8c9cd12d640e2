import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Form, Input } from 'antd';
import { ADMIN_REASON_MAX_LENGTH, ADMIN_TICKET_MAX_LENGTH, adminReasonSchema, adminTicketSchema } from '@mfa-portal/shared';

export interface Justification {
  reason: string;
  ticket: string;
}

/** The API's own rule for a reason, when one is given. */
export const reasonFormatRule = (t: TFunction) => ({
  validator: (_rule: unknown, value: string | undefined) =>
    !value?.trim() || adminReasonSchema.safeParse(value).success
      ? Promise.resolve()
      : Promise.reject(new Error(t('admin:justify.reason_invalid', { max: ADMIN_REASON_MAX_LENGTH }))),
});

/**
 * Reason and ticket reference, required with every administrative change (both go to the audit log
 * and the user sees them in their activity). Checked here with the API's own rules before sending.
 */
export function JustificationFields({ reasonHelp, autoFocus = false }: { reasonHelp?: string; autoFocus?: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <>
      <Form.Item
        name="reason"
        label={t('justify.reason_label')}
        extra={reasonHelp ?? t('justify.reason_help')}
        rules={[{ required: true, whitespace: true, message: t('justify.reason_required') }, reasonFormatRule(t)]}
      >
        {/* The browser's own text area, styled like antd's (whose TextArea needs a ResizeObserver even without auto-size). */}
        <textarea
          className="ant-input ant-input-outlined admin-textarea"
          rows={3}
          maxLength={ADMIN_REASON_MAX_LENGTH}
          autoFocus={autoFocus}
          data-autofocus={autoFocus || undefined}
        />
      </Form.Item>
      <TicketField />
    </>
  );
}

/**
 * The ticket reference, checked with the API's own rule: required with every change, optional with a
 * check of a code or a push (where it is recorded when given).
 */
export function TicketField({ optional = false, help }: { optional?: boolean; help?: string | null }) {
  const { t } = useTranslation('admin');
  return (
    <Form.Item
      name="ticket"
      label={t('justify.ticket_label')}
      extra={help === null ? undefined : (help ?? t('justify.ticket_help'))}
      rules={[
        { required: !optional, whitespace: !optional, message: t('justify.ticket_required') },
        {
          validator: (_rule, value: string | undefined) =>
            !value?.trim() || adminTicketSchema.safeParse(value).success
              ? Promise.resolve()
              : Promise.reject(new Error(t('justify.ticket_invalid', { max: ADMIN_TICKET_MAX_LENGTH }))),
        },
      ]}
    >
      <Input maxLength={ADMIN_TICKET_MAX_LENGTH} autoComplete="off" />
    </Form.Item>
  );
}

/** The reason and ticket as the API wants them (trimmed). */
export const justificationOf = (values: Justification): Justification => ({ reason: values.reason.trim(), ticket: values.ticket.trim() });
