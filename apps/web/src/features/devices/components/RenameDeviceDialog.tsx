import { useTranslation } from 'react-i18next';
import { Button, Form, Input, Modal } from 'antd';
import { DEVICE_NAME_MAX_LENGTH, type Device } from '@mfa-portal/shared';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { focusMarkedElement, useFocusReturn } from '../../../lib/ui/dialog-focus';
import { useFlash } from '../../../lib/ui/flash';
import { useRenameDevice } from '../api/rename-device';

/** Control characters (C0, DEL, C1), which the API refuses in a name. */
const hasControlCharacters = (value: string) =>
  [...value].some((ch) => ch.charCodeAt(0) < 0x20 || (ch.charCodeAt(0) >= 0x7f && ch.charCodeAt(0) <= 0x9f));

/**
 * Rename one device (PATCH). The new name is confirmed where the person is looking: by `onRenamed`
 * (beside the device, which its list shows), or else by the success banner.
 */
export function RenameDeviceDialog({
  device,
  open,
  onClose,
  onRenamed,
}: {
  device: Device;
  open: boolean;
  onClose: () => void;
  onRenamed?: (confirmation: string) => void;
}) {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<{ name: string }>();
  const rename = useRenameDevice();
  const { showSuccess } = useFlash();
  // Field ids are `<form name>_<field>`: unique on the page, even with another form open behind.
  const formId = 'rename-device';
  const close = () => {
    rename.reset();
    onClose();
  };
  const submit = ({ name }: { name: string }) => {
    const trimmed = name.trim();
    rename.mutate(
      { deviceId: device.id, name: trimmed },
      {
        onSuccess: (renamed) => {
          const confirmation = t('rename.done', { name: renamed.name });
          if (onRenamed) onRenamed(confirmation);
          else showSuccess(confirmation);
          close();
        },
      },
    );
  };
  const focusReturn = useFocusReturn(open);
  return (
    <Modal
      open={open}
      {...focusReturn}
      afterOpenChange={focusMarkedElement}
      title={t('rename.title', { name: device.name })}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close}>
          {t('actions.cancel')}
        </Button>,
        <Button key="submit" type="primary" htmlType="submit" form={formId} loading={rename.isPending}>
          {rename.isPending ? t('rename.saving') : t('rename.submit')}
        </Button>,
      ]}
    >
      <Form name={formId} form={form} layout="vertical" initialValues={{ name: device.name }} onFinish={submit} requiredMark={false}>
        <Form.Item
          name="name"
          label={t('rename.name_label')}
          extra={t('rename.name_help', { max: DEVICE_NAME_MAX_LENGTH })}
          rules={[
            { required: true, whitespace: true, message: t('rename.name_required') },
            { max: DEVICE_NAME_MAX_LENGTH, message: t('rename.name_too_long', { max: DEVICE_NAME_MAX_LENGTH }) },
            {
              validator: (_rule, value: string | undefined) =>
                value && hasControlCharacters(value) ? Promise.reject(new Error(t('rename.name_invalid'))) : Promise.resolve(),
            },
          ]}
        >
          <Input autoFocus data-autofocus maxLength={DEVICE_NAME_MAX_LENGTH} autoComplete="off" />
        </Form.Item>
      </Form>
      {rename.error ? <ErrorAlert error={rename.error} title={t('rename.failed')} /> : null}
    </Modal>
  );
}
