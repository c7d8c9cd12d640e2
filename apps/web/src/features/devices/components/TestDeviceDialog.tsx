import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form, Input, Modal } from 'antd';
import type { Device } from '@mfa-portal/shared';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { focusMarkedElement } from '../../../lib/ui/dialog-focus';
import { formatTime } from '../../../lib/ui/format';
import { normaliseOtp, OTP_INPUT_PROPS, otpRules } from '../../../lib/ui/otp';
import { useTestDevice } from '../api/test-device';

/**
 * "Check it works": the user types a passcode from the device and hears at once whether it was right
 * (a clear success result, or the translated reason it was refused).
 */
export function TestDeviceDialog({ device, open, onClose }: { device: Device; open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation('devices');
  const [form] = Form.useForm<{ code: string }>();
  const test = useTestDevice();
  // Field ids are `<form name>_<field>`: unique on the page, even with another form open behind.
  const formId = 'test-device';
  const closeButton = useRef<HTMLButtonElement>(null);
  // The form goes away on success: keep the focus in the dialog, on its Close button.
  useEffect(() => {
    if (test.isSuccess) closeButton.current?.focus();
  }, [test.isSuccess]);
  const close = () => {
    test.reset();
    onClose();
  };
  const again = () => {
    test.reset();
    form.resetFields();
  };
  const submit = ({ code }: { code: string }) => test.mutate({ deviceId: device.id, code: normaliseOtp(code) });

  return (
    <Modal
      open={open}
      afterOpenChange={focusMarkedElement}
      title={t('test.title', { name: device.name })}
      onCancel={close}
      destroyOnHidden
      footer={
        test.isSuccess
          ? [
              <Button key="again" onClick={again}>
                {t('test.again')}
              </Button>,
              <Button key="close" type="primary" onClick={close} ref={closeButton}>
                {t('actions.close')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {t('actions.cancel')}
              </Button>,
              <Button key="submit" type="primary" htmlType="submit" form={formId} loading={test.isPending}>
                {test.isPending ? t('test.checking') : t('test.submit')}
              </Button>,
            ]
      }
    >
      {test.isSuccess ? (
        <div role="status" className="success-box">
          <span className="success-box__mark" aria-hidden="true">
            ✓
          </span>
          <div>
            <p className="success-box__title">{t('test.success_title')}</p>
            <p>{t('test.success_body', { name: device.name, time: formatTime(test.data.verifiedAt, i18n.resolvedLanguage) })}</p>
          </div>
        </div>
      ) : (
        <>
          <p>{t('test.intro', { name: device.name })}</p>
          <Form name={formId} form={form} layout="vertical" onFinish={submit} requiredMark={false}>
            <Form.Item name="code" label={t('test.code_label')} rules={otpRules(t)}>
              <Input {...OTP_INPUT_PROPS} autoFocus data-autofocus />
            </Form.Item>
          </Form>
          {test.error ? <ErrorAlert error={test.error} title={t('test.failure_title')} /> : null}
        </>
      )}
    </Modal>
  );
}
