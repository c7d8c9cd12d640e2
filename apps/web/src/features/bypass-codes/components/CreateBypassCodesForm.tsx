import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form } from 'antd';
import type { CreateBypassCodesResponse } from '@mfa-portal/shared';
import {
  BYPASS_CODE_INITIAL_VALUES,
  BypassCodeFields,
  bypassCodeRequest,
  type BypassCodeValues,
} from '../../../lib/bypass-codes/BypassCodeFields';
import { stepUpOutcome } from '../../../lib/step-up/step-up';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useCreateBypassCodes } from '../../../lib/bypass-codes/api/create-bypass-codes';

/**
 * One code that works once, valid for a day: the default most people need (a day without the phone),
 * said in one sentence. "More options" shows how many codes (1–10), how long they stay valid (at most
 * 7 days: anything longer is refused here, before asking the server) and how many times each works.
 * Creating needs a step-up.
 */
export function CreateBypassCodesForm({
  liveCount,
  onCreated,
}: {
  liveCount: number;
  onCreated: (result: CreateBypassCodesResponse) => void;
}) {
  const { t } = useTranslation('bypass-codes');
  const [form] = Form.useForm<BypassCodeValues>();
  const create = useCreateBypassCodes();
  const [moreOptions, setMoreOptions] = useState(false);
  const watched = Form.useWatch([], form) as Partial<BypassCodeValues> | undefined;
  const current = { ...BYPASS_CODE_INITIAL_VALUES, ...watched };

  const submit = async (values: BypassCodeValues) => {
    try {
      const result = await create.mutateAsync(bypassCodeRequest(values, liveCount));
      form.resetFields();
      setMoreOptions(false);
      onCreated(result);
    } catch {
      // shown below from create.error
    }
  };
  const { error, cancelled } = stepUpOutcome(create);

  return (
    <>
      <Form<BypassCodeValues>
        name="create-bypass-codes"
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={BYPASS_CODE_INITIAL_VALUES}
        onFinish={(values) => void submit(values)}
        // A refused number is one of the options: show them, with the reason.
        onFinishFailed={() => setMoreOptions(true)}
        className="narrow-form"
      >
        <div className="bypass-defaults">
          {moreOptions ? null : (
            <p className="bypass-defaults__summary">
              {t('create.summary', {
                count: current.count ?? 1,
                uses: t('create.summary_uses', { count: current.reuseCount ?? 1 }),
                validity: t(`create.summary_validity_${current.validityUnit}`, { count: current.validityAmount ?? 1 }),
              })}
            </p>
          )}
          <Button
            type="link"
            className="bypass-defaults__toggle"
            aria-expanded={moreOptions}
            aria-controls="bypass-code-options"
            onClick={() => setMoreOptions((shown) => !shown)}
          >
            {moreOptions ? t('create.fewer_options') : t('create.more_options')}
          </Button>
        </div>
        <BypassCodeFields
          liveCount={liveCount}
          usesHelp={t('create.uses_help')}
          replaceLabel={t('create.replace_label')}
          replaceHelp={t('create.replace_help', { count: liveCount })}
          options={{ id: 'bypass-code-options', shown: moreOptions }}
        />
        <Button type="primary" htmlType="submit" loading={create.isPending}>
          {create.isPending ? t('create.submitting') : t('create.submit')}
        </Button>
      </Form>
      {cancelled ? <p className="form-note">{t('create.not_confirmed')}</p> : null}
      {error ? <ErrorAlert error={error} title={t('create.failed')} className="after-form" /> : null}
    </>
  );
}
