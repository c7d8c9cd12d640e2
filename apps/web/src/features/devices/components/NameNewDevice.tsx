import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button, Form, Input } from 'antd';
import { DEVICE_NAME_MAX_LENGTH, type Device } from '@mfa-portal/shared';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';
import { useDeviceLabels } from '../../../lib/devices/device-labels';
import { returnPathOf } from '../../../lib/main-routes';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useFlash } from '../../../lib/ui/flash';
import { useRenameDevice } from '../api/rename-device';

/**
 * The phone is connected: it arrived with the name the phone gives itself ("Pixel 8"); the user keeps it
 * or types another (PATCH /api/me/devices/:id), then goes back to the list, where the phone now is.
 */
export function NameNewDevice({ device }: { device: Device }) {
  const { t } = useTranslation('devices');
  const rename = useRenameDevice();
  const invalidate = useInvalidateMe();
  const navigate = useNavigate();
  const location = useLocation();
  const { showSuccess } = useFlash();
  const { label } = useDeviceLabels();
  const submit = async ({ name }: { name: string }) => {
    const trimmed = name.trim();
    try {
      const saved = trimmed === device.name ? device : await rename.mutateAsync({ deviceId: device.id, name: trimmed });
      // Unchanged, nothing was sent: the list still has to learn of the new phone.
      if (saved === device) await invalidate();
      showSuccess(t('portal_authenticator.done', { name: label(saved) }));
      void navigate(returnPathOf(location.state));
    } catch {
      // shown below from rename.error
    }
  };
  return (
    <>
      <Form<{ name: string }>
        name="name-portal-authenticator"
        layout="vertical"
        initialValues={{ name: device.name }}
        onFinish={(values) => void submit(values)}
        requiredMark={false}
        className="narrow-form"
      >
        <Form.Item
          name="name"
          label={t('portal_authenticator.name_label')}
          extra={t('portal_authenticator.name_help')}
          rules={[
            { required: true, whitespace: true, message: t('rename.name_required') },
            { max: DEVICE_NAME_MAX_LENGTH, message: t('rename.name_too_long', { max: DEVICE_NAME_MAX_LENGTH }) },
          ]}
        >
          {/* The form replaces the link the focus may have been on: start here. */}
          <Input maxLength={DEVICE_NAME_MAX_LENGTH} autoComplete="off" autoFocus />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={rename.isPending}>
          {rename.isPending ? t('portal_authenticator.saving') : t('portal_authenticator.save')}
        </Button>
      </Form>
      {rename.error ? <ErrorAlert error={rename.error} title={t('rename.failed')} /> : null}
    </>
  );
}
