import { useTranslation } from 'react-i18next';
import { Button, Form, Input, Modal } from 'antd';
import type { Device } from '@mfa-portal/shared';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { focusMarkedElement, useFocusReturn } from '../../../lib/ui/dialog-focus';
import { useFlash } from '../../../lib/ui/flash';
import { normaliseOtp, OTP_INPUT_PROPS, otpRules } from '../../../lib/ui/otp';
import { useResyncHardwareToken } from '../api/resync-hardware-token';

interface ResyncForm {
  first: string;
  second: string;
  third: string;
}

/** Brings a hardware token back in step with three consecutive codes (after many presses offline). */
export function ResyncTokenDialog({ device, open, onClose }: { device: Device; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<ResyncForm>();
  const resync = useResyncHardwareToken();
  const { showSuccess } = useFlash();
  // Field ids are `<form name>_<field>`: unique on the page, even with another form open behind.
  const formId = 'resync-token';
  const close = () => {
    resync.reset();
    onClose();
  };
  const submit = (values: ResyncForm) =>
    resync.mutate(
      { deviceId: device.id, codes: [values.first, values.second, values.third].map(normaliseOtp) },
      {
        onSuccess: () => {
          showSuccess(t('resync.done', { name: device.name }));
          close();
        },
      },
    );
  const labels = [t('resync.first_label'), t('resync.second_label'), t('resync.third_label')];
  const focusReturn = useFocusReturn(open);
  return (
    <Modal
      open={open}
      {...focusReturn}
      afterOpenChange={focusMarkedElement}
      title={t('resync.title', { name: device.name })}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close}>
          {t('actions.cancel')}
        </Button>,
        <Button key="submit" type="primary" htmlType="submit" form={formId} loading={resync.isPending}>
          {resync.isPending ? t('resync.saving') : t('resync.submit')}
        </Button>,
      ]}
    >
      <p>{t('resync.intro')}</p>
      <Form name={formId} form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        {(['first', 'second', 'third'] as const).map((name, i) => (
          <Form.Item key={name} name={name} label={labels[i]} rules={otpRules(t, labels[i])}>
            <Input {...OTP_INPUT_PROPS} autoFocus={i === 0} data-autofocus={i === 0 ? true : undefined} />
          </Form.Item>
        ))}
      </Form>
      {resync.error ? <ErrorAlert error={resync.error} title={t('resync.failed')} /> : null}
    </Modal>
  );
}
