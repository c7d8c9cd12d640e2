import { useTranslation } from 'react-i18next';
import { Checkbox, Form, InputNumber } from 'antd';
import { BYPASS_CODE_LIMITS, MAX_BYPASS_VALIDITY_SECONDS, type CreateBypassCodesResponse } from '@mfa-portal/shared';
import { NativeSelect } from '../../../lib/ui/NativeSelect';
import { useCreateUserBypassCodes } from '../api/create-bypass-codes';
import { JustifiedActionDialog } from './JustifiedActionDialog';

const UNIT_SECONDS = { hours: 60 * 60, days: 24 * 60 * 60 } as const;
type Unit = keyof typeof UNIT_SECONDS;
/** The longest validity in days (7), from the shared limit. */
const MAX_DAYS = MAX_BYPASS_VALIDITY_SECONDS / UNIT_SECONDS.days;

interface IssueValues {
  count: number | null;
  validityAmount: number | null;
  validityUnit: Unit;
  reuseCount: number | null;
  replaceExisting: boolean;
}

const wholeNumberBetween = (min: number, max: number, message: string) => ({
  validator: (_rule: unknown, value: number | null | undefined) =>
    value === null || value === undefined || (Number.isInteger(value) && value >= min && value <= max)
      ? Promise.resolve()
      : Promise.reject(new Error(message)),
});

/**
 * Bypass codes for the user, as on their own screen (1–10 codes, at most 7 days: longer is refused
 * here before asking the server, 1–10 uses) plus the reason and ticket. The codes are shown once,
 * on the page, after the dialog closes.
 */
export function IssueBypassCodesDialog({
  upn,
  liveCount,
  onClose,
  onCreated,
}: {
  upn: string;
  liveCount: number;
  onClose: () => void;
  onCreated: (result: CreateBypassCodesResponse) => void;
}) {
  const { t } = useTranslation(['admin', 'bypass-codes']);
  const create = useCreateUserBypassCodes(upn);
  const L = BYPASS_CODE_LIMITS;
  return (
    <JustifiedActionDialog<IssueValues>
      open
      name="admin-issue-bypass-codes"
      title={t('admin:issue.title', { upn })}
      intro={<p>{t('admin:issue.intro')}</p>}
      initialValues={{ count: 1, validityAmount: 1, validityUnit: 'days', reuseCount: 1, replaceExisting: false }}
      fields={
        <>
          <Form.Item
            name="count"
            label={t('bypass-codes:create.count_label')}
            extra={t('bypass-codes:create.count_help', { min: L.minCount, max: L.maxCount })}
            rules={[
              { required: true, message: t('bypass-codes:create.count_required') },
              wholeNumberBetween(L.minCount, L.maxCount, t('bypass-codes:create.count_range', { min: L.minCount, max: L.maxCount })),
            ]}
          >
            <InputNumber inputMode="numeric" precision={0} className="number-input" autoFocus data-autofocus />
          </Form.Item>
          <Form.Item
            label={t('bypass-codes:create.validity_label')}
            extra={t('bypass-codes:create.validity_help', { days: MAX_DAYS })}
            required
          >
            <div className="inline-fields">
              <Form.Item
                name="validityAmount"
                noStyle
                dependencies={['validityUnit']}
                rules={[
                  { required: true, message: t('bypass-codes:create.validity_required') },
                  ({ getFieldValue }) => ({
                    validator: (_rule, value: number | null | undefined) => {
                      if (value === null || value === undefined) return Promise.resolve();
                      if (!Number.isInteger(value) || value < 1) return Promise.reject(new Error(t('bypass-codes:create.validity_whole')));
                      const seconds = value * UNIT_SECONDS[getFieldValue('validityUnit') as Unit];
                      return seconds > MAX_BYPASS_VALIDITY_SECONDS
                        ? Promise.reject(new Error(t('bypass-codes:create.validity_too_long', { days: MAX_DAYS })))
                        : Promise.resolve();
                    },
                  }),
                ]}
              >
                <InputNumber
                  inputMode="numeric"
                  precision={0}
                  aria-label={t('bypass-codes:create.validity_amount_label')}
                  className="number-input"
                />
              </Form.Item>
              <Form.Item name="validityUnit" noStyle>
                <NativeSelect
                  aria-label={t('bypass-codes:create.validity_unit_label')}
                  options={[
                    { value: 'hours', label: t('bypass-codes:create.unit_hours') },
                    { value: 'days', label: t('bypass-codes:create.unit_days') },
                  ]}
                  className="unit-select"
                />
              </Form.Item>
            </div>
          </Form.Item>
          <Form.Item
            name="reuseCount"
            label={t('bypass-codes:create.uses_label')}
            extra={t('admin:issue.uses_help')}
            rules={[
              { required: true, message: t('bypass-codes:create.uses_required') },
              wholeNumberBetween(L.minReuse, L.maxReuse, t('bypass-codes:create.uses_range', { min: L.minReuse, max: L.maxReuse })),
            ]}
          >
            <InputNumber inputMode="numeric" precision={0} className="number-input" />
          </Form.Item>
          {liveCount > 0 ? (
            <Form.Item name="replaceExisting" valuePropName="checked" extra={t('admin:issue.replace_help', { count: liveCount })}>
              <Checkbox>{t('admin:issue.replace_label')}</Checkbox>
            </Form.Item>
          ) : null}
        </>
      }
      submitLabel={t('admin:issue.submit')}
      submittingLabel={t('admin:issue.submitting')}
      pending={create.isPending}
      error={create.error}
      failedTitle={t('admin:issue.failed')}
      onClose={onClose}
      onSubmit={async (values) => {
        const result = await create.mutateAsync({
          count: values.count ?? L.minCount,
          validitySeconds: (values.validityAmount ?? 1) * UNIT_SECONDS[values.validityUnit],
          reuseCount: values.reuseCount ?? L.minReuse,
          replaceExisting: liveCount > 0 && values.replaceExisting,
          reason: values.reason,
          ticket: values.ticket,
        });
        onCreated(result);
        onClose();
      }}
    />
  );
}
