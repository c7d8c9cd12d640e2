import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, Form, InputNumber } from 'antd';
import { BYPASS_CODE_LIMITS, MAX_BYPASS_VALIDITY_SECONDS } from '@mfa-portal/shared';
import { NativeSelect } from '../ui/NativeSelect';

export const VALIDITY_UNIT_SECONDS = { hours: 60 * 60, days: 24 * 60 * 60 } as const;
export type ValidityUnit = keyof typeof VALIDITY_UNIT_SECONDS;
/** The longest validity in days (7), from the shared limit. */
export const MAX_VALIDITY_DAYS = MAX_BYPASS_VALIDITY_SECONDS / VALIDITY_UNIT_SECONDS.days;

/** The form values behind {@link BypassCodeFields}. */
export interface BypassCodeValues {
  count: number | null;
  validityAmount: number | null;
  validityUnit: ValidityUnit;
  reuseCount: number | null;
  replaceExisting: boolean;
}

export const BYPASS_CODE_INITIAL_VALUES: BypassCodeValues = {
  count: 1,
  validityAmount: 1,
  validityUnit: 'days',
  reuseCount: 1,
  replaceExisting: false,
};

/** The request the API takes for these values (replacing only when there is something to replace). */
export function bypassCodeRequest(values: BypassCodeValues, liveCount: number) {
  const L = BYPASS_CODE_LIMITS;
  return {
    count: values.count ?? L.minCount,
    validitySeconds: (values.validityAmount ?? 1) * VALIDITY_UNIT_SECONDS[values.validityUnit],
    reuseCount: values.reuseCount ?? L.minReuse,
    replaceExisting: liveCount > 0 && values.replaceExisting,
  };
}

const wholeNumberBetween = (min: number, max: number, message: string) => ({
  validator: (_rule: unknown, value: number | null | undefined) =>
    value === null || value === undefined || (Number.isInteger(value) && value >= min && value <= max)
      ? Promise.resolve()
      : Promise.reject(new Error(message)),
});

/**
 * How many codes (1–10), how long they stay valid (at most 7 days: anything longer is refused here,
 * before asking the server) and how many times each works, plus "replace the live codes" when there
 * are some. The same fields for a member of staff's own codes and for codes a helpdesk member issues;
 * the caller gives the texts that differ between the two.
 */
export function BypassCodeFields({
  liveCount,
  usesHelp,
  replaceLabel,
  replaceHelp,
  autoFocus = false,
  options,
}: {
  liveCount: number;
  usesHelp: ReactNode;
  replaceLabel: ReactNode;
  replaceHelp: ReactNode;
  autoFocus?: boolean;
  /**
   * The three numbers as "more options" behind a summary of their defaults: the element's id (for the
   * toggle's aria-controls) and whether they are shown. Without it they are always shown.
   */
  options?: { id: string; shown: boolean };
}) {
  const { t } = useTranslation('bypass-codes');
  const L = BYPASS_CODE_LIMITS;
  return (
    <>
      <div id={options?.id} hidden={options ? !options.shown : undefined}>
        <Form.Item
          name="count"
          label={t('create.count_label')}
          extra={t('create.count_help', { min: L.minCount, max: L.maxCount })}
          rules={[
            { required: true, message: t('create.count_required') },
            wholeNumberBetween(L.minCount, L.maxCount, t('create.count_range', { min: L.minCount, max: L.maxCount })),
          ]}
        >
          <InputNumber
            inputMode="numeric"
            precision={0}
            className="number-input"
            {...(autoFocus ? { autoFocus: true, 'data-autofocus': true } : {})}
          />
        </Form.Item>
        <Form.Item label={t('create.validity_label')} extra={t('create.validity_help', { days: MAX_VALIDITY_DAYS })} required>
          <div className="inline-fields">
            <Form.Item
              name="validityAmount"
              noStyle
              dependencies={['validityUnit']}
              rules={[
                { required: true, message: t('create.validity_required') },
                ({ getFieldValue }) => ({
                  validator: (_rule, value: number | null | undefined) => {
                    if (value === null || value === undefined) return Promise.resolve();
                    if (!Number.isInteger(value) || value < 1) return Promise.reject(new Error(t('create.validity_whole')));
                    const seconds = value * VALIDITY_UNIT_SECONDS[getFieldValue('validityUnit') as ValidityUnit];
                    return seconds > MAX_BYPASS_VALIDITY_SECONDS
                      ? Promise.reject(new Error(t('create.validity_too_long', { days: MAX_VALIDITY_DAYS })))
                      : Promise.resolve();
                  },
                }),
              ]}
            >
              <InputNumber inputMode="numeric" precision={0} aria-label={t('create.validity_amount_label')} className="number-input" />
            </Form.Item>
            <Form.Item name="validityUnit" noStyle>
              <NativeSelect
                aria-label={t('create.validity_unit_label')}
                options={[
                  { value: 'hours', label: t('create.unit_hours') },
                  { value: 'days', label: t('create.unit_days') },
                ]}
                className="unit-select"
              />
            </Form.Item>
          </div>
        </Form.Item>
        <Form.Item
          name="reuseCount"
          label={t('create.uses_label')}
          extra={usesHelp}
          rules={[
            { required: true, message: t('create.uses_required') },
            wholeNumberBetween(L.minReuse, L.maxReuse, t('create.uses_range', { min: L.minReuse, max: L.maxReuse })),
          ]}
        >
          <InputNumber inputMode="numeric" precision={0} className="number-input" />
        </Form.Item>
      </div>
      {liveCount > 0 ? (
        <Form.Item name="replaceExisting" valuePropName="checked" extra={replaceHelp}>
          <Checkbox>{replaceLabel}</Checkbox>
        </Form.Item>
      ) : null}
    </>
  );
}
