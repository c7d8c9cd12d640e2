import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form, Input, Modal, Radio } from 'antd';
import type { StepUpMethod } from '@mfa-portal/shared';
import { hasMfaData, useMfaData } from '../../shell/contexts';
import { ErrorAlert } from '../ui/ErrorAlert';
import { focusMarkedElement } from '../ui/dialog-focus';
import { useVerifyStepUp } from './api/verify-step-up';

interface StepUpForm {
  method: StepUpMethod;
  code: string;
}

/** Digits only (people type bypass codes with spaces or dashes as printed). */
const digitsOf = (value: string) => value.replace(/[\s-]/g, '');

/**
 * "Confirm it's you": a passcode from a device (authenticator app or hardware token) or a bypass code,
 * checked by POST /api/me/step-up. Opened by useWithStepUp when the API asks for it.
 */
export function StepUpDialog({
  open,
  onVerified,
  onCancel,
  afterClose,
}: {
  open: boolean;
  onVerified: () => void;
  onCancel: () => void;
  afterClose?: () => void;
}) {
  const { t } = useTranslation('step-up');
  const [form] = Form.useForm<StepUpForm>();
  const verify = useVerifyStepUp();
  const { mfaData } = useMfaData();
  // Field ids are `<form name>_<field>`: unique on the page, even with another form open behind.
  const formId = 'step-up';
  const [method, setMethod] = useState<StepUpMethod>('passcode');
  const hasDevices = hasMfaData(mfaData) && mfaData.devices.length > 0;
  const hasBypass = hasMfaData(mfaData) && mfaData.bypassCodes.active > 0;
  const { reset } = verify;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setMethod('passcode');
    reset();
  }, [open, form, reset]);

  const submit = (values: StepUpForm) => {
    verify.mutate({ method: values.method, code: digitsOf(values.code) }, { onSuccess: onVerified });
  };

  return (
    <Modal
      open={open}
      afterOpenChange={focusMarkedElement}
      // The action goes on after the check (new codes take the focus): the provider returns it only if lost.
      focusable={{ focusTriggerAfterClose: false }}
      afterClose={afterClose}
      title={t('title')}
      onCancel={onCancel}
      destroyOnHidden
      mask={{ closable: false }}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {t('cancel')}
        </Button>,
        <Button key="submit" type="primary" htmlType="submit" form={formId} loading={verify.isPending}>
          {verify.isPending ? t('checking') : t('submit')}
        </Button>,
      ]}
    >
      <p>{t('intro')}</p>
      {!hasDevices && !hasBypass ? <p>{t('no_factor')}</p> : null}
      <Form<StepUpForm>
        name={formId}
        form={form}
        layout="vertical"
        initialValues={{ method: 'passcode', code: '' }}
        onFinish={submit}
        onValuesChange={(changed: Partial<StepUpForm>) => {
          if (changed.method) {
            setMethod(changed.method);
            form.setFieldValue('code', '');
          }
        }}
        requiredMark={false}
      >
        <Form.Item name="method" label={t('method.label')}>
          <Radio.Group>
            <Radio value="passcode">{t('method.passcode')}</Radio>
            <Radio value="bypass">{t('method.bypass')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="code"
          label={method === 'passcode' ? t('code.passcode_label') : t('code.bypass_label')}
          extra={method === 'passcode' ? t('code.passcode_help') : t('code.bypass_help')}
          rules={[
            { required: true, message: t('code.required') },
            {
              pattern: method === 'passcode' ? /^\s*\d{6}\s*$/ : /^\s*\d(?:[ -]?\d){8}\s*$/,
              message: method === 'passcode' ? t('code.passcode_format') : t('code.bypass_format'),
            },
          ]}
        >
          <Input autoComplete="one-time-code" inputMode="numeric" autoFocus data-autofocus />
        </Form.Item>
      </Form>
      {verify.error ? <ErrorAlert error={verify.error} title={t('failed')} /> : null}
    </Modal>
  );
}
